#!/usr/bin/env python3
"""The link estimator's decisions, read from the workers' logs (issue 29, item 4).

    MR_LOG_LEVEL=debug mr experiment run FILE ...       # the workers log every active round
    bench/policies/link_rounds.py results/NAME [--link PAYLOAD_BYTES_PER_S]

For every run under results/NAME/runs and every worker log in it, prints:
  - the pacing episodes: the round and B at which each started and ended, and why it ended
    (exit-probe: a probe found headroom; exit-idle: 8 rounds without backlog);
  - the active rounds by class: paced or not, what kept the sender backlogged (full: a send
    found its socket full; paced: a chunk waited for the pacer; idle: neither), and whether
    one job or several sent in the round, with the mean delivery rate of each class;
  - with --link: how many samples (rounds' delivery rates) were above the link's payload rate,
    and the largest. A pacer cruising at 0.97 B above the link is not the bottleneck: TCP is.
Standard library only. Needs the debug lines ("shuffle link round"); the info lines
("shuffle link estimate") alone give the episodes.
"""
import argparse
import glob
import os
import re
import sys
from collections import defaultdict

ROUND = re.compile(r"shuffle link round (\d+): delivered (\d+) bytes/s (full|paced|idle) jobs (\d+) "
                   r"B (\d+) pacing (\d+)")
EVENT = re.compile(r"shuffle link estimate: (pacing the shares|unpaced) \(B = (\d+) bytes/s; ([a-z-]+): round (\d+)")


def read(path):
    rounds, events = [], []
    with open(path, errors="replace") as f:
        for line in f:
            m = ROUND.search(line)
            if m:
                r, rate, kind, jobs, b, pace = m.groups()
                rounds.append((int(r), float(rate), kind, int(jobs), float(b), float(pace)))
                continue
            m = EVENT.search(line)
            if m:
                events.append((int(m.group(4)), m.group(3), float(m.group(2))))
    return rounds, events


def report(name, rounds, events, link):
    print(f"### {name}: {len(rounds)} active rounds, {sum(1 for e in events if e[1] == 'enter')} pacing episodes")
    for r, why, b in events:
        print(f"- round {r}: {why} (B {b / 1e6:.1f} MB/s)")
    classes = defaultdict(list)
    for _, rate, kind, jobs, _, pace in rounds:
        classes[("paced" if pace > 0 else "unpaced", kind, "1 job" if jobs <= 1 else "2+ jobs")].append(rate)
    print("| pacer | backlog | jobs | rounds | share of rounds | mean delivered MB/s |")
    print("|---|---|---|---:|---:|---:|")
    for k in sorted(classes):
        v = classes[k]
        print(f"| {k[0]} | {k[1]} | {k[2]} | {len(v)} | {100 * len(v) / len(rounds):.0f}% | "
              f"{sum(v) / len(v) / 1e6:.1f} |")
    if link and rounds:
        above = [x[1] for x in rounds if x[1] > link]
        print(f"rounds delivering above the link's payload rate ({link / 1e6:.2f} MB/s): {len(above)}, "
              f"largest {max(x[1] for x in rounds) / 1e6:.1f} MB/s; largest B {max(x[4] for x in rounds) / 1e6:.1f} MB/s")
    print()


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results", help="results/NAME of `mr experiment run`")
    p.add_argument("--link", type=float, default=0, help="the link's payload rate, bytes/s (19130000 for 20 MB/s)")
    a = p.parse_args(argv)
    logs = sorted(glob.glob(os.path.join(a.results, "runs", "*", "logs", "worker-*.log")))
    if not logs:
        print(f"link_rounds: no worker logs under {a.results}/runs/*/logs", file=sys.stderr)
        return 2
    for path in logs:
        rounds, events = read(path)
        run = os.path.basename(os.path.dirname(os.path.dirname(path)))
        report(f"{run} {os.path.basename(path)}", rounds, events, a.link)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
