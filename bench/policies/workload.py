#!/usr/bin/env python3
"""Seeded workload for the real-cluster policy experiment (bench/policies).

A workload is a list of synthetic jobs with Poisson arrivals. Each job gets a size S
(seconds at full cluster capacity, log-normal, clipped) and a class: map-heavy jobs have
map work x = S and shuffle work y = r*S, shuffle-heavy jobs the reverse, with r uniform in
[R_LO, R_HI]. x and y are turned into `mr submit synthetic` knobs with the *nominal*
capacities of the cluster run.sh starts (see docs/policy-experiment.md, "Calibration"):

  map station:     NOMINAL_MAP_CPU = 1.5 CPU-seconds per second: 3 map slots time-share
                   2 cores; ~0.1-0.15 core goes to the shuffle path and the daemons, and
                   the machine is shared with other users (see the doc), so 1.5 not 2
  shuffle station: NOMINAL_SHUFFLE bytes per second (3 workers x 20 MB/s)

so a job of map size x burns 1.5x CPU-seconds in total (spread over N maps) and emits
y * 60e6 bytes. Emitting, sorting and writing those bytes costs map CPU too
(EMIT_CPU_PER_BYTE, measured), which is taken out of the burn so that x stays x.

The arrival rate makes the nominal load of the busier station, lambda * max(mean(x),
mean(y)), equal --load; both stations' loads are printed and stored. Standard library only; random.Random(seed) gives the same file on every machine
with the same Python major version (the generator never uses hash-ordered containers).

  workload.py --jobs 40 --load 0.6 --seed 1 --out workload.json [--csv nominal.csv] [--quick]
"""
import argparse
import json
import math
import random
import sys

NOMINAL_MAP_CPU = 1.5          # CPU-seconds of map work the cluster does per second
NOMINAL_SHUFFLE = 3 * 20e6     # bytes/s: 3 workers, --shuffle-bandwidth 20MB/s each
MAP_SLOTS = 3                  # 3 workers x 1 map slot
EMIT_CPU_PER_BYTE = 0.5 / 100e6  # CPU-seconds to emit+sort+write a byte of map output
                                 # (measured: 3 maps x 100 MB, no burn, took 1.5 CPU-s)
TARGET_TASK_CPU = 0.5          # CPU-seconds per map task: tasks are never preempted, so they
                               # must be short next to jobs for the fluid model to apply
MAX_TASK_BYTES = 20e6          # well below the 64 MiB sort buffer: no spills
R_LO, R_HI = 0.15, 0.40        # ratio small/large work of a job
REDUCERS = 3                   # one reducer per worker


def profile(quick):
    """Size distribution: (mean of S, sigma of log S, clip low, clip high)."""
    return (2.0, 0.7, 0.7, 6.0) if quick else (4.7, 0.9, 1.0, 25.0)


def lognormal_with_mean(rng, mean, sigma):
    return rng.lognormvariate(math.log(mean) - sigma * sigma / 2, sigma)


def make_job(rng, i, map_heavy, mean, sigma, lo, hi):
    size = min(hi, max(lo, lognormal_with_mean(rng, mean, sigma)))
    ratio = rng.uniform(R_LO, R_HI)
    x, y = (size, size * ratio) if map_heavy else (size * ratio, size)
    total_bytes = y * NOMINAL_SHUFFLE
    total_cpu = x * NOMINAL_MAP_CPU
    emit_cpu = total_bytes * EMIT_CPU_PER_BYTE
    if emit_cpu > total_cpu:  # emitting y's bytes alone takes longer than x: say so
        total_cpu = emit_cpu
        x = total_cpu / NOMINAL_MAP_CPU
    per_slot = max(total_cpu / TARGET_TASK_CPU, total_bytes / MAX_TASK_BYTES) / MAP_SLOTS
    maps = MAP_SLOTS * max(1, round(per_slot))
    burn = max(0.0, total_cpu - emit_cpu)
    return {
        "index": i,
        "name": "w%02d-%s" % (i, "map" if map_heavy else "shf"),
        "class": "map-heavy" if map_heavy else "shuffle-heavy",
        "x_nominal": x,
        "y_nominal": y,
        "maps": maps,
        "map_seconds": round(burn / maps, 4),
        "map_bytes": int(total_bytes / maps),
        "reducers": REDUCERS,
        # Hints in the runtime's units: slot-seconds (3 maps share 1.5 cores, so a map's
        # wall time is its CPU time x 3/1.5 when the station is full) and bytes.
        "hint_map_seconds": round(total_cpu * MAP_SLOTS / NOMINAL_MAP_CPU, 3),
        "hint_shuffle_bytes": int(total_bytes),
    }


def generate(jobs, load, seed, quick):
    rng = random.Random(seed)
    mean, sigma, lo, hi = profile(quick)
    # Exactly half of the jobs in each class (in random order), so that both stations see
    # about the same load whatever the seed.
    classes = [i < jobs // 2 for i in range(jobs)]
    rng.shuffle(classes)
    out = [make_job(rng, i, classes[i], mean, sigma, lo, hi) for i in range(jobs)]
    mean_x = sum(j["x_nominal"] for j in out) / jobs
    mean_y = sum(j["y_nominal"] for j in out) / jobs
    rate = load / max(mean_x, mean_y)  # the busier station is at --load
    t = 0.0
    for j in out:
        j["arrival"] = round(t, 3)
        t += rng.expovariate(rate)
    return {
        "seed": seed, "jobs": jobs, "quick": quick, "load": load,
        "load_map": rate * mean_x, "load_shuffle": rate * mean_y,
        "arrival_rate": rate, "mean_x": mean_x, "mean_y": mean_y,
        "nominal_map_cpu_per_s": NOMINAL_MAP_CPU, "nominal_shuffle_bytes_per_s": NOMINAL_SHUFFLE,
        "emit_cpu_per_byte": EMIT_CPU_PER_BYTE, "job_list": out,
    }


def write_model_csv(workload, path):
    """The workload in `mr model tandem` format, nominal sizes (the a-priori prediction)."""
    with open(path, "w") as f:
        f.write("# nominal sizes of workload seed %d (seconds at full capacity)\n" % workload["seed"])
        f.write("arrival,x,y\n")
        for j in workload["job_list"]:
            f.write("%.6f,%.6f,%.6f\n" % (j["arrival"], j["x_nominal"], j["y_nominal"]))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--jobs", type=int, default=40)
    p.add_argument("--load", type=float, default=0.6)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quick", action="store_true", help="smaller jobs (the --quick run)")
    p.add_argument("--out", required=True, help="workload JSON to write")
    p.add_argument("--csv", help="also write the nominal sizes as a model CSV")
    a = p.parse_args(argv)
    if a.jobs < 1 or not 0 < a.load < 1:
        p.error("need --jobs >= 1 and 0 < --load < 1")
    w = generate(a.jobs, a.load, a.seed, a.quick)
    with open(a.out, "w") as f:
        json.dump(w, f, indent=1)
    if a.csv:
        write_model_csv(w, a.csv)
    heavy = sum(j["class"] == "map-heavy" for j in w["job_list"])
    span = w["job_list"][-1]["arrival"]
    print("workload: %d jobs (%d map-heavy), arrivals over %.0f s, mean x %.2f s, mean y %.2f s, "
          "map load %.2f, shuffle load %.2f" % (a.jobs, heavy, span, w["mean_x"], w["mean_y"],
                                                w["load_map"], w["load_shuffle"]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
