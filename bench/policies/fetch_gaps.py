#!/usr/bin/env python3
"""The gaps between one reducer's fetches from one source worker (issue 29, item 4).

    bench/policies/fetch_gaps.py results/NAME [--policy P]

For every run under results/NAME/runs (or the one policy), and every (reducer, source
worker) pair whose fetches crossed a link (source != the reducer's worker), takes the
successful fetches in start order and says what each gap between one fetch's end and the
next one's start was spent on, from the traces alone:
  - waiting for the map: the next map output did not exist yet (its map's attempt ended
    after the previous fetch ended): the part of the gap before that map's end. The pair
    had nothing to fetch then: not a gap of the scheduler;
  - location: from that map's end to the next fetch's start: the master learning the
    output and the reducer's worker learning its location (heartbeats), and the turn-around;
  - turn-around: the next output existed before the previous fetch ended: the whole gap is
    the fetch scheduler's (a thread taking the next queued fetch);
  - overlaps: the next fetch started before the previous one ended (two in flight).
And the totals: seconds the pairs were fetching (union of their fetches), waiting for a
location, and turning around. What a fetch spends before its first byte (connect,
handshake, the server's admission) is inside its [start, end]: the workers' debug lines
"fetch phases" (MR_LOG_LEVEL=debug) give it.
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
    return f"{q(0.5) * 1e3:.1f} / {q(0.9) * 1e3:.1f} / {s[-1] * 1e3:.1f} ms"


def gaps_of_run(policy_dir):
    jobs, _ = load_run(policy_dir)
    g = {"waiting": [], "location": [], "turn": [], "overlaps": 0, "rates": [], "pairs": 0, "busy": 0.0}
    for job in jobs:
        map_end = {m["task"]: m["end"] for m in job.maps if m["ok"]}
        by_pair = defaultdict(list)
        for f in job.fetches:
            if f["ok"] and f["dst"] is not None and f["src"] != f["dst"]:
                by_pair[(f["task"], f["src"])].append(f)
                if f["end"] > f["start"]:
                    g["rates"].append(f["bytes"] / (f["end"] - f["start"]))
        for spans in by_pair.values():
            spans.sort(key=lambda f: f["start"])
            g["pairs"] += 1
            hi = float("-inf")
            for f in spans:
                g["busy"] += max(0.0, f["end"] - max(f["start"], hi))
                hi = max(hi, f["end"])
            for prev, nxt in zip(spans, spans[1:]):
                gap = nxt["start"] - prev["end"]
                if gap < 0:
                    g["overlaps"] += 1
                    continue
                ready = map_end.get(nxt["map"], prev["end"])
                if ready <= prev["end"]:
                    g["turn"].append(gap)
                    continue
                wait = min(gap, ready - prev["end"])
                g["waiting"].append(wait)
                g["location"].append(gap - wait)
    return g


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
    print("| run | pairs | waiting for the map: n, p50 / p90 / max | location: p50 / p90 / max | "
          "turn-around: n, p50 / p90 / max | overlaps | fetching s | location s | turn-around s | "
          "remote fetch rate p50 MB/s |")
    print("|---|---:|---|---|---|---:|---:|---:|---:|---:|")
    for run in runs:
        g = gaps_of_run(run)
        rates = sorted(g["rates"])
        rate = rates[len(rates) // 2] / 1e6 if rates else 0
        print(f"| {os.path.basename(run)} | {g['pairs']} | {len(g['waiting'])}, {quantiles(g['waiting'])} | "
              f"{quantiles(g['location'])} | {len(g['turn'])}, {quantiles(g['turn'])} | {g['overlaps']} | "
              f"{g['busy']:.1f} | {sum(g['location']):.1f} | {sum(g['turn']):.2f} | {rate:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
