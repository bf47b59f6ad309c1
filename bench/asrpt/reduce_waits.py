#!/usr/bin/env python3
"""Reducers that wait for a slot on their own worker while another worker has one free.

A reducer is bound to a worker when the master places it (it fetches its partition there);
on a cluster of unified slots it then waits for a slot on that worker. This sums, over a
run's reduces, the time from the end of a reduce's last fetch (or its placement) to its
start during which some other worker had a free unified slot. Usage:

    bench/asrpt/reduce_waits.py results/asrpt-4x2-seed2/runs/fifo-1/traces [SLOTS_PER_WORKER]
"""
import collections
import glob
import json
import sys


def main():
    trace_dir = sys.argv[1]
    slots = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    events = []
    for path in sorted(glob.glob(trace_dir + "/job-*.jsonl")):
        job = path.rsplit("/", 1)[-1][:-len(".jsonl")]
        with open(path) as f:
            for line in f:
                e = json.loads(line)
                e["_job"] = job
                events.append(e)
    t0 = min(e["t"] for e in events if e["event"] == "job_submit")
    busy = collections.defaultdict(list)  # worker -> [(start, end)] of every attempt
    for e in events:
        if e["event"] == "attempt_end" and "start" in e:
            busy[e["worker"]].append((e["start"] - t0, e["t"] - t0))
    workers = sorted(busy)

    def free_elsewhere(t, own):
        return any(sum(1 for s, x in busy[w] if s <= t < x) < slots for w in workers if w != own)

    ready, start, bound = {}, {}, {}
    for e in events:
        key = (e["_job"], e.get("task", ""))
        t = e["t"] - t0
        if e["event"] == "reduce_place":
            bound[key] = e["worker"]
            ready.setdefault(key, t)
        elif e["event"] == "fetch_end" and e.get("status") == "ok":
            ready[key] = max(ready.get(key, 0), t)
        elif e["event"] == "attempt_start" and e.get("task", "").startswith("r-"):
            start[key] = t
    step = 0.05
    total, waited, per_job = 0.0, 0, collections.Counter()
    for key, s in start.items():
        t = ready.get(key)
        if t is None or s <= t:
            continue
        w = 0.0
        while t < s:
            if free_elsewhere(t, bound.get(key)):
                w += step
            t += step
        total += w
        waited += w > 0
        per_job[key[0]] += w
    print(f"{trace_dir}: {waited} reduces waited {total:.1f} s in all for their own worker "
          f"while another had a free slot (step {step} s)")
    print("  most: " + ", ".join(f"{j} {v:.1f} s" for j, v in per_job.most_common(5)))


if __name__ == "__main__":
    main()
