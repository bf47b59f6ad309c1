#!/usr/bin/env python3
"""The gaps between one reducer's fetches from one source worker (issue 29, item 4).

    bench/policies/fetch_gaps.py results/NAME [--policy P]

For every run under results/NAME/runs (or the one policy), and every (reducer, source
worker) pair whose fetches crossed a link (source != the reducer's worker), takes the
successful fetches in start order and, between each fetch's end and the next one's start,
says what the gap was spent on, from the traces alone:
  - waiting for the map: the next map output did not exist yet (its map's attempt ended
    after the previous fetch ended): the part of the gap before that map's end;
  - location: from the map's end (or the previous fetch's end, whichever is later) to the
    next fetch's start: the master learning the output and the reducer's worker learning
    its location (heartbeats), plus the fetch thread's turn-around;
  - overlap: the next fetch started before the previous one ended (negative gap: two in
    flight for the pair).
Also prints, per class, the fetches' own duration split into the time a fetch of that size
needs at the rate it then ran and the rest is not possible from the trace (no first-byte
stamp): the report gives each fetch's mean rate, the remote fetches' count and bytes.
Standard library only.
"""
import argparse
import glob
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tracedata import load_run  # noqa: E402


def quantiles(v):
    if not v:
        return "-"
    s = sorted(v)
    q = lambda p: s[min(len(s) - 1, int(p * (len(s) - 1) + 0.5))]  # noqa: E731
    return f"{q(0.5) * 1e3:.0f} / {q(0.9) * 1e3:.0f} / {s[-1] * 1e3:.0f} ms"


def gaps_of_run(policy_dir):
    jobs, _ = load_run(policy_dir)
    waiting, location, overlap, rates = [], [], [], []
    pairs = 0
    for job in jobs:
        map_end = {m["task"]: m["end"] for m in job.maps if m["ok"]}
        by_pair = defaultdict(list)
        for f in job.fetches:
            if f["ok"] and f["dst"] is not None and f["src"] != f["dst"]:
                by_pair[(f["task"], f["src"])].append(f)
                if f["end"] > f["start"]:
                    rates.append(f["bytes"] / (f["end"] - f["start"]))
        for spans in by_pair.values():
            spans.sort(key=lambda f: f["start"])
            pairs += 1
            for prev, nxt in zip(spans, spans[1:]):
                gap = nxt["start"] - prev["end"]
                if gap < 0:
                    overlap.append(-gap)
                    continue
                ready = map_end.get(nxt["map"], prev["end"])
                wait = min(gap, max(0.0, ready - prev["end"]))
                if wait > 0:
                    waiting.append(wait)
                location.append(gap - wait)
    return pairs, waiting, location, overlap, rates


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", help="results/NAME of mr experiment run")
    ap.add_argument("--policy", help="only this policy's runs")
    args = ap.parse_args(argv)
    runs = sorted(glob.glob(os.path.join(args.results, "runs", "*")))
    if args.policy:
        runs = [r for r in runs if os.path.basename(r).startswith(args.policy)]
    if not runs:
        print(f"no runs under {args.results}/runs", file=sys.stderr)
        return 2
    print("| run | pairs | gaps | waiting for the map: n, p50/p90/max | location + turn-around: p50/p90/max "
          "| overlaps (two in flight) | remote fetch rate p50 MB/s |")
    print("|---|---:|---:|---|---|---:|---:|")
    for run in runs:
        pairs, waiting, location, overlap, rates = gaps_of_run(run)
        n = len(location) + len(overlap)
        rate = sorted(rates)[len(rates) // 2] / 1e6 if rates else 0
        print(f"| {os.path.basename(run)} | {pairs} | {n} | {len(waiting)}, {quantiles(waiting)} | "
              f"{quantiles(location)} | {len(overlap)} | {rate:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
