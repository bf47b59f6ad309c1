#!/usr/bin/env python3
"""Where a run's ready reducers waited, and the live mechanisms the replay may miss.

A reducer is bound to a worker when the master places it (it fetches its partition there);
on a cluster of unified slots it then waits for a slot on that worker. This sums, over a
run's reduces, the time from the end of a reduce's last fetch (or its placement) to its
start, split by where the free slots were, as the task-level simulator splits its own
(TaskSimResult::reduce_*_wait, the `# reduce_...wait` lines of `mr model predict`):

  bound     its own worker had no free slot while another worker had one
  full      no worker had a free slot
  own_free  its own worker had a free slot (the policy gave it to another task, or the
            master had not yet learnt that the reduce was ready)

A slot is held from the attempt's `attempt_start` (the master's reservation) to its
`attempt_end`. It also prints, from the same traces, the delays of the live protocol that
the simulator does not model: an assignment's delivery (worker-measured start minus the
master's assignment), an arrival's first assignment, a reducer's placement to its last
fetch and to its start, and the attempts that did not end ok (kills, failures). Usage:

    bench/asrpt/reduce_waits.py RUN/traces [SLOTS_PER_WORKER] [--per-reduce]
"""
import collections
import glob
import json
import sys

STEP = 0.01  # seconds


def load(trace_dir):
    events = []
    for path in sorted(glob.glob(trace_dir + "/job-*.jsonl")):
        job = path.rsplit("/", 1)[-1][:-len(".jsonl")]
        with open(path) as f:
            for line in f:
                e = json.loads(line)
                e["_job"] = job
                events.append(e)
    events.sort(key=lambda e: e["t"])
    return events


def quantiles(values):
    v = sorted(values)
    if not v:
        return "none"
    n = len(v)
    return (f"n={n} median {v[n // 2] * 1e3:.1f} ms, p90 {v[int(0.9 * n)] * 1e3:.1f} ms, "
            f"max {v[-1] * 1e3:.1f} ms, sum {sum(v):.2f} s")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    per_reduce = "--per-reduce" in sys.argv
    trace_dir = args[0]
    slots = int(args[1]) if len(args) > 1 else 2
    events = load(trace_dir)
    t0 = min(e["t"] for e in events if e["event"] == "job_submit")
    assigned = {}
    for e in events:
        if e["event"] == "attempt_start":
            assigned[(e["_job"], e["task"], e["attempt"])] = e["t"] - t0
    busy = collections.defaultdict(list)  # worker -> [(held from, to)]
    delivery, statuses = [], collections.Counter()
    for e in events:
        if e["event"] != "attempt_end" or "start" not in e:
            continue
        statuses[e.get("status", "")] += 1
        held = assigned.get((e["_job"], e["task"], e["attempt"]), e["start"] - t0)
        busy[e["worker"]].append((held, e["t"] - t0))
        if (e["_job"], e["task"], e["attempt"]) in assigned:
            delivery.append(max(0.0, e["start"] - t0 - held))
    workers = sorted(busy)

    def free(w, t):
        return sum(1 for s, x in busy[w] if s <= t < x) < slots

    submit, first = {}, {}
    place, ready, start, bound = {}, {}, {}, {}
    for e in events:
        key = (e["_job"], e.get("task", ""))
        t = e["t"] - t0
        if e["event"] == "job_submit":
            submit[e["_job"]] = t
        elif e["event"] == "attempt_start":
            first.setdefault(e["_job"], t)
            if key[1].startswith("r-"):
                start.setdefault(key, t)
        elif e["event"] == "reduce_place" and not e.get("backup"):
            bound[key] = e["worker"]
            place[key] = t
            ready.setdefault(key, t)
        elif e["event"] == "fetch_end" and e.get("status") == "ok":
            ready[key] = max(ready.get(key, 0), t)
    total = collections.Counter()
    for key in sorted(start):
        if key not in ready:
            continue
        t, s, own = ready[key], start[key], bound[key]
        split = collections.Counter()
        while t < s:
            if free(own, t):
                split["own_free"] += STEP
            elif any(free(w, t) for w in workers if w != own):
                split["bound"] += STEP
            else:
                split["full"] += STEP
            t += STEP
        total.update(split)
        if per_reduce:
            print(f"  {key[0]} {key[1]} worker {own} placed {place[key]:.3f} ready {ready[key]:.3f} "
                  f"start {start[key]:.3f}: " + ", ".join(f"{k} {v:.2f} s" for k, v in sorted(split.items())))
    print(f"{trace_dir}: ready reduces waited {sum(total.values()):.1f} s (step {STEP} s): "
          f"bound {total['bound']:.1f} s, full {total['full']:.1f} s, own_free {total['own_free']:.1f} s")
    print("  attempt ends: " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
    print("  delivery (worker start - assignment): " + quantiles(delivery))
    print("  arrival -> first assignment: " + quantiles([first[j] - submit[j] for j in first]))
    print("  reducer placement -> last fetch: " + quantiles([ready[k] - place[k] for k in place]))
    print("  reducer placement -> start, started within 0.3 s: " +
          quantiles([start[k] - place[k] for k in place if k in start and start[k] - place[k] < 0.3]))


if __name__ == "__main__":
    main()
