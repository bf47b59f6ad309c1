#!/usr/bin/env python3
"""How much of a replay's per-job error is the replay's own sensitivity to timing.

Replays one recorded run K times through the task-level simulator (`mr model predict`):
once as recorded, then K - 1 times with every task's recorded duration moved by a uniform
draw on (-JITTER, JITTER) (--jitter, seeds 1 .. K-1; default 1 ms, far below a live run's
own timing noise), and prints per-job errors |x / y - 1|, median and p90 over the jobs:

  replay vs replay   each jittered replay against the unjittered one: the floor no
                     deterministic replay of this run can be expected to beat per job
  replay k vs live   each replay against the run (the usual replay error)
  median vs live     the per-job median of the K replays against the run
  inside             jobs whose measured time lies in [min, max] of the K replays (±5%)

Extra arguments go to every `mr model predict` call (e.g. --reduce-ready-delay 0.02).
Usage (MR_BIN: default build/cli/mr):

    bench/asrpt/replay_band.py RUN/traces POLICY EXPERIMENT.yaml [K] [JITTER] [-- predict args]
"""
import os
import statistics
import subprocess
import sys


def predict(mr, traces, policy, exp, jitter, seed, extra):
    out = subprocess.run([mr, "model", "predict", "--trace", traces, "--policy", policy, "--cluster-from",
                          exp, "--jitter", repr(jitter), "--jitter-seed", str(seed)] + extra,
                         check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        if line.startswith("job-"):
            f = line.split(",")
            rows[f[0]] = (float(f[5]), float(f[6]))  # measured, predicted
    return rows


def summary(errors):
    v = sorted(errors)
    n = len(v)
    return f"median {100 * statistics.median(v):5.1f}%, p90 {100 * v[min(n - 1, int(0.9 * n))]:5.1f}%"


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    traces, policy, exp = argv[:3]
    k = int(argv[3]) if len(argv) > 3 else 12
    jitter = float(argv[4]) if len(argv) > 4 else 0.001
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    mr = os.environ.get("MR_BIN", os.path.join(root, "build", "cli", "mr"))
    runs = [predict(mr, traces, policy, exp, jitter if i else 0, i, extra) for i in range(k)]
    jobs = sorted(runs[0])
    live = {j: runs[0][j][0] for j in jobs}

    def err(pred, ref):
        return [abs(pred[j] / ref[j] - 1) for j in jobs if ref[j] > 0]

    base = {j: runs[0][j][1] for j in jobs}
    pooled = []
    for i, r in enumerate(runs):
        pred = {j: r[j][1] for j in jobs}
        if i > 0:
            pooled += err(pred, base)
        print(f"replay {i:2d} ({'seed ' + str(i) if i else 'as recorded'}) vs live: {summary(err(pred, live))}, "
              f"mean {statistics.mean(pred.values()):.2f} s (live {statistics.mean(live.values()):.2f} s)")
    print(f"replay vs replay (pooled over {k - 1}): {summary(pooled)}")
    med = {j: statistics.median(r[j][1] for r in runs) for j in jobs}
    print(f"median of the {k} replays vs live: {summary(err(med, live))}")
    inside = sum(1 for j in jobs
                 if 0.95 * min(r[j][1] for r in runs) <= live[j] <= 1.05 * max(r[j][1] for r in runs))
    print(f"inside [min, max] of the replays (±5%): {inside} of {len(jobs)} jobs")


if __name__ == "__main__":
    main()
