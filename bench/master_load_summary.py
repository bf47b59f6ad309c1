#!/usr/bin/env python3
"""The spread of bench/master_load.sh's runs: for each worker count, the median and the
range (min-max) over the runs of the measures the issue's acceptance names.

usage: master_load_summary.py RUN_DIR...   (each holds result.json and lost.txt of one run;
the directory name is wWORKERS-rRUN)
"""
import json
import os
import re
import statistics
import sys

# (label, how to read it from one run's result.json, scale)
MEASURES = [
    ("jobs hb/s (master)", lambda r, p: p["jobs"]["master_heartbeats"] / p["jobs"]["seconds"], 1),
    ("jobs reply p50 ms", lambda r, p: p["jobs"]["reply_us"]["p50"], 1e-3),
    ("jobs reply p99 ms", lambda r, p: p["jobs"]["reply_us"]["p99"], 1e-3),
    ("jobs decide/slot p99 us", lambda r, p: p["jobs"]["round_per_free_slot_us"]["p99"], 1),
    ("jobs round p99 us", lambda r, p: p["jobs"]["round_us"]["p99"], 1),
    ("jobs handle p99 us", lambda r, p: p["jobs"]["heartbeat_us"]["p99"], 1),
    ("jobs master CPU %", lambda r, p: 100 * p["jobs"]["master_cpu_seconds"] / p["jobs"]["seconds"], 1),
    ("jobs master RSS MiB", lambda r, p: p["jobs"]["master_rss_mib"], 1),
    ("tasks/s", lambda r, p: (p["jobs"]["maps"] + p["jobs"]["reduces"]) / p["jobs"]["seconds"], 1),
    ("restart: all registered s", lambda r, p: r["restart"]["all_registered"], 1),
    ("restart: job ended s", lambda r, p: r["restart"]["job_end"], 1),
    ("workers declared lost", lambda r, p: r["_lost"], 1),
]


def load(run_dir):
    with open(os.path.join(run_dir, "result.json")) as f:
        r = json.load(f)
    lost_path = os.path.join(run_dir, "lost.txt")
    r["_lost"] = int(open(lost_path).read().strip()) if os.path.exists(lost_path) else None
    return r


def main(dirs):
    by_count = {}
    for d in dirs:
        m = re.search(r"w(\d+)-r(\d+)$", d.rstrip("/"))
        if not m or not os.path.exists(os.path.join(d, "result.json")):
            continue
        by_count.setdefault(int(m.group(1)), []).append(load(d))
    for workers in sorted(by_count):
        runs = by_count[workers]
        print(f"== {workers} simulated workers: {len(runs)} run(s); median [min - max]")
        for label, read, scale in MEASURES:
            values = []
            for r in runs:
                phases = {p["name"]: p for p in r.get("phases", [])}
                try:
                    v = read(r, phases)
                except (KeyError, TypeError, ZeroDivisionError):
                    v = None
                if v is not None and v >= 0:
                    values.append(v * scale)
            if not values:
                print(f"  {label:28s} -")
                continue
            print(f"  {label:28s} {statistics.median(values):10.1f}  [{min(values):.1f} - {max(values):.1f}]")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
