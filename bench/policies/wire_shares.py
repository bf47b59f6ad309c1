#!/usr/bin/env python3
"""Per-job wire rates against each policy's shares, on shaped links (issue 29, item 4).

    bench/policies/wire_shares.py RESULTS_DIR --link RATE_BYTES_PER_S [--fetch-threads N]

RESULTS_DIR is an `mr experiment run` results directory (results/NAME) of a `kind: netns`
cluster; each live run's traces are in runs/LABEL-REP/traces/. For every run this applies
the share analysis of the policy experiment (shares.py: segments where a job's share is
constant and its data waits on a source worker) with the link rate as each worker's
capacity B, counting only what crossed a link: a fetch whose reducer runs on the map's own
worker goes over that host's loopback, which tc does not shape, so it is left out (with
the pieces it served). Bytes come from the fetches, spread evenly over each fetch (the
sources' `served` reports cannot tell a local reader from a remote one).

Prints one row per run: segments and seconds analysed, the fraction of backlogged time
whose measured rate is within +-10% of the assigned rate s_j x B and of the lent rate (the
contract with lending), the median measured/assigned and measured/lent ratios, and the
fraction of the bytes that were local; and the same against each job's fair rate when the
receivers' links are bottlenecks too (fair_rates.py: weighted max-min over every host's
egress and ingress, each B), over the segments with a remote fetch in flight. Standard
library only.

With --segments, also prints every run's segments (one row each: job, source, share, the
measured rate against s x B, the share-weighted fair rate and TCP's per-connection split,
the fraction of the segment with a fetch in flight), to read a policy per job.
"""
import argparse
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shares import analyze_shares  # noqa: E402
from tracedata import load_run  # noqa: E402


def wire_only(jobs):
    """Drops loopback fetches and the served reports; returns (local bytes, all bytes)."""
    local = total = 0
    for j in jobs:
        for f in j.fetches:
            if f["ok"]:
                total += f["bytes"]
                if f["src"] == f["dst"]:
                    local += f["bytes"]
        j.fetches = [f for f in j.fetches if f["src"] != f["dst"]]
        j.served = []
    return local, total


def fmt(v, pct=False):
    if v is None:
        return "-"
    return f"{100 * v:.0f}%" if pct else f"{v:.2f}"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results", help="results/NAME of `mr experiment run`")
    p.add_argument("--link", type=float, required=True, help="each host's link rate, bytes/s (the file's cluster link)")
    p.add_argument("--segments", action="store_true", help="also print every segment of every run")
    p.add_argument("--fetch-threads", type=int, default=32, help="each worker's max concurrent fetches")
    a = p.parse_args(argv)
    runs = sorted(d for d in glob.glob(os.path.join(a.results, "runs", "*")) if os.path.isdir(os.path.join(d, "traces")))
    if not runs:
        print(f"wire_shares: no runs with traces under {a.results}/runs", file=sys.stderr)
        return 2
    print("| run | segments | backlogged s | within 10% of s*B | within 10% of lent | median measured/assigned "
          "| median measured/lent | within 10% of fair (s with a remote fetch) | median measured/fair "
          "| within 10% of TCP's split | median measured/TCP | a share-0 fetch into its receivers | local bytes |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    details = []
    for run in runs:
        jobs, _ = load_run(run)
        ended = [j.end for j in jobs if j.end is not None]
        if not ended:
            print(f"| {os.path.basename(run)} | no finished job | | | | | | | | |")
            continue
        local, total = wire_only(jobs)
        segs, s = analyze_shares(jobs, max(ended), a.link, a.fetch_threads, fair=True)
        details.append((os.path.basename(run), segs))
        print(f"| {os.path.basename(run)} | {s['segments']} | {s['seconds']} | {fmt(s['within10_assigned'], True)} | "
              f"{fmt(s['within10_lent'], True)} | {fmt(s['median_ratio_assigned'])} | {fmt(s['median_ratio_lent'])} | "
              f"{fmt(s['within10_fair'], True)} ({s['fair_seconds']} s) | {fmt(s['median_ratio_fair'])} | "
              f"{fmt(s['within10_tcp'], True)} | {fmt(s['median_ratio_tcp'])} | {fmt(s['zero_at_receivers'], True)} | "
              f"{fmt(local / total if total else None, True)} |")
    if a.segments:
        for name, segs in details:
            print_segments(name, segs)
    return 0


def print_segments(name, segs):
    mb = 1e6
    print(f"\n{name}: segments (MB/s)\n")
    print("| job | source | t0 | s | share | measured | s*B | fair | TCP's split | with a fetch in flight "
          "| a share-0 fetch into its receivers |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for g in sorted(segs, key=lambda g: (g["t0"], g["src"])):
        print(f"| {g['name'] or g['job']} | {g['src']} | {g['t0']} | {g['length']} | {g['share']:.2f} | "
              f"{g['measured'] / mb:.1f} | {g['assigned'] / mb:.1f} | {g.get('fair', 0) / mb:.1f} | "
              f"{g.get('tcp', 0) / mb:.1f} | {100 * g['in_flight']:.0f}% | "
              f"{100 * g.get('zero_at_receivers', 0):.0f}% |")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
