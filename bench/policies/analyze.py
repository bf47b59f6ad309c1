#!/usr/bin/env python3
"""Analysis of a bench/policies run: measured response times, measured capacities, the
tandem model's and the task-level simulator's predictions for the same workload, and measured
vs assigned shuffle rates.

  analyze.py --mr build-experiment/cli/mr --run bench/policies/out/full \
             --results bench/policies/results/full [--results-md bench/RESULTS.md]

Reads RUN/workload.json, RUN/run-info.txt and RUN/POLICY/{traces/,monitor.csv,status.json}.
Writes RESULTS/summary.json, RESULTS/summary.md, RESULTS/model-POLICY.csv (the measured
workload in `mr model tandem` format), RESULTS/segments-POLICY.csv (share analysis) and
RESULTS/response.png (gnuplot, when installed). With --results-md the summary replaces the
"Policy experiment (issue 3)" block of that file (between its markers), or is appended.
Standard library only. Definitions of every number: docs/policy-experiment.md.
"""
import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys

import policy_report as report
from links import link_stats
from shares import analyze_shares
from tracedata import Grid, load_run

POLICIES = ["klps", "fair", "fifo", "maxsrpt", "splitsrpt"]
MODEL_POLICY = {"klps": "klps", "fair": "ps", "fifo": "fifo", "maxsrpt": "maxsrpt", "splitsrpt": "splitsrpt"}


def mean(v):
    return sum(v) / len(v) if v else None


def response_stats(jobs):
    done = [j for j in jobs if j.status == "ok"]
    rt = [j.response for j in done]
    shuffle_rt = [j.last_fetch_end() - j.submit for j in done if j.last_fetch_end() is not None]
    tail = [j.end - j.last_fetch_end() for j in done if j.last_fetch_end() is not None]
    return {
        "jobs": len(jobs), "succeeded": len(done),
        "mean": mean(rt), "median": statistics.median(rt) if rt else None,
        "p90": sorted(rt)[int(0.9 * (len(rt) - 1))] if rt else None,
        "mean_to_shuffle_end": mean(shuffle_rt), "mean_reduce_tail": mean(tail),
    }


def class_means(jobs, by_name):
    """Mean response per class and for the smaller/larger half by nominal max(x, y), and the
    mean wait from submission to the first map start (the map station's queueing)."""
    ok = [j for j in jobs if j.status == "ok" and j.name in by_name and j.maps]
    out = {}
    for cls in ("map-heavy", "shuffle-heavy"):
        out[cls] = mean([j.response for j in ok if by_name[j.name]["class"] == cls])
    size = lambda j: max(by_name[j.name]["x_nominal"], by_name[j.name]["y_nominal"])
    ranked = sorted(ok, key=size)
    halves = {"small": ranked[:len(ranked) // 2], "large": ranked[len(ranked) // 2:]}
    for half, sel in halves.items():
        out[half] = mean([j.response for j in sel])
        out[half + "_first_map_wait"] = mean([min(m["start"] for m in j.maps) - j.submit for j in sel])
    out["small_names"] = [j.name for j in halves["small"]]
    return out


def isolated_jobs(jobs, slots, shuffle_rate):
    """Jobs that had the cluster to themselves (no other job between their submit and end):
    measured response / max(x, y), the model's response for a job alone. Shows the per-job
    cost the fluid model does not have (task granularity, fetch latency, reduce)."""
    ok = [j for j in jobs if j.status == "ok" and j.end is not None]
    ratios = []
    for j in ok:
        if any(k is not j and k.submit < j.end and (k.end or 1e18) > j.submit for k in jobs):
            continue
        alone = max(j.map_slot_seconds() / slots, j.shuffle_bytes() / shuffle_rate)
        ratios.append({"name": j.name, "measured": j.response, "model_alone": alone})
    excess = [r["measured"] - r["model_alone"] for r in ratios]
    return {"jobs": len(ratios), "mean_excess_s": mean(excess),
            "mean_ratio": mean([r["measured"] / r["model_alone"] for r in ratios]), "list": ratios}


def solve3(a, b):
    """Gaussian elimination for a 3x3 system; None if singular."""
    m = [row[:] + [v] for row, v in zip(a, b)]
    for c in range(3):
        p = max(range(c, 3), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-12:
            return None
        m[c], m[p] = m[p], m[c]
        for r in range(3):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[r][3] / m[r][r] for r in range(3)]


def map_task_fit(jobs, by_name):
    """Least squares: map wall seconds = a + b * requested CPU seconds + c * output MB."""
    rows = []
    for j in jobs:
        w = by_name.get(j.name)
        for m in j.maps:
            if m["ok"] and w:
                rows.append((1.0, w["map_seconds"], m["bytes_out"] / 1e6, m["end"] - m["start"]))
    if len(rows) < 3:
        return None
    ata = [[sum(r[i] * r[k] for r in rows) for k in range(3)] for i in range(3)]
    atb = [sum(r[i] * r[3] for r in rows) for i in range(3)]
    coef = solve3(ata, atb)
    return None if coef is None else {"intercept_s": coef[0], "wall_per_cpu_s": coef[1], "s_per_MB": coef[2],
                                      "tasks": len(rows)}


def map_capacity(jobs, slots, horizon):
    spans = [(m["start"], m["end"]) for j in jobs for m in j.maps]
    used = sum(b - a for a, b in spans)
    grid = Grid(horizon, 0.1)
    running = grid.intervals(spans)
    busy = sum(1 for n in running if n > 0) * grid.dt
    return {"slots": slots, "span_s": horizon, "available_slot_s": slots * horizon, "used_slot_s": used,
            "utilization": used / (slots * horizon) if horizon else None, "busy_s": busy,
            "all_slots_busy_s": sum(1 for n in running if n >= slots) * grid.dt,
            "mean_running_when_busy": sum(running) * grid.dt / busy if busy else None}


def monitor_stats(pdir):
    path = os.path.join(pdir, "monitor.csv")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return None
    col = lambda k: [float(r[k]) for r in rows]
    return {"loadavg1": mean(col("loadavg1")), "machine_busy_cores": mean(col("machine_busy_cores")),
            "cluster_cores": mean(col("cluster_cores")),
            "other_cores": mean([b - c for b, c in zip(col("machine_busy_cores"), col("cluster_cores"))])}


def run_mr_model(mr, args):
    """Runs `mr model ARGS` (tandem or tasksim: both print the same CSV, response in column 6);
    returns (mean response, per-job responses) or (None, error)."""
    r = subprocess.run([mr, "model"] + args, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    rows = [line for line in r.stdout.splitlines() if line and not line.startswith("#")]
    per_job = [float(row.split(",")[5]) for row in rows[1:]]
    return mean(per_job), per_job


def run_model(mr, csv_path, policy):
    """The fluid tandem model on a workload CSV."""
    return run_mr_model(mr, ["tandem", "--workload", csv_path, "--policy", MODEL_POLICY[policy]])


def write_model_csv(path, jobs, slots, shuffle_rate):
    """The measured workload in model units: x = slot-seconds / slots, y = bytes / rate."""
    done = [j for j in jobs if j.status == "ok"]
    with open(path, "w") as f:
        f.write("# measured: x = map slot-seconds / %d slots, y = shuffle bytes / %.0f B/s\n" % (slots, shuffle_rate))
        f.write("arrival,x,y\n")
        for j in done:
            x = max(1e-6, j.map_slot_seconds() / slots)
            y = max(1e-6, j.shuffle_bytes() / shuffle_rate)
            f.write("%.6f,%.6f,%.6f\n" % (j.submit, x, y))
    return done


TASKSIM_SEEDS = 5  # runs averaged when map times are noisy


def run_tasksim(a, workload_path, policy, per_worker_rate, reduce_seconds, map_time_cv=0.0):
    """The task-level simulator: the live policy on a simulated cluster of the run's shape.
    With map_time_cv > 0 each map's duration is noisy (log-normal, the job's mean): the
    mean over TASKSIM_SEEDS seeds is returned (per-job responses of the first seed)."""
    args = ["tasksim", "--workload", workload_path, "--policy", policy,
            "--workers", str(a.workers), "--map-slots", str(a.map_slots // a.workers),
            "--reduce-slots", str(a.reduce_slots), "--shuffle-bandwidth", "%.0f" % per_worker_rate,
            "--reduce-seconds", "%.4f" % max(0.0, reduce_seconds or 0.0)]
    if map_time_cv <= 0:
        return run_mr_model(a.mr, args)
    means, first = [], None
    for seed in range(1, TASKSIM_SEEDS + 1):
        m, per_job = run_mr_model(a.mr, args + ["--map-time-cv", "%.4f" % map_time_cv, "--seed", str(seed)])
        if m is None:
            return m, per_job
        means.append(m)
        first = first or per_job
    return mean(means), first


def map_time_cv(jobs):
    """Coefficient of variation of map attempt durations around their job's mean (pooled):
    how unevenly a job's maps ran, which decides how unevenly its output sits on the links."""
    ratios = []
    for j in jobs:
        d = [m["end"] - m["start"] for m in j.maps if m["ok"]]
        if len(d) >= 2 and mean(d) > 0:
            ratios += [x / mean(d) for x in d]
    if len(ratios) < 2:
        return 0.0
    mu = mean(ratios)
    return (sum((r - mu) ** 2 for r in ratios) / len(ratios)) ** 0.5


def write_tasksim_json(path, jobs, by_name):
    """The measured workload as task-level jobs: the submitted shape (maps, reducers) with each
    job's measured submit time, map slot-seconds and fetched bytes."""
    out = []
    for j in (j for j in jobs if j.status == "ok"):
        w = dict(by_name[j.name])
        w["arrival"] = j.submit
        w["hint_map_seconds"] = max(1e-6, j.map_slot_seconds())
        w["hint_shuffle_bytes"] = j.shuffle_bytes()
        w["map_bytes"] = j.shuffle_bytes() / max(1, w["maps"])
        out.append(w)
    with open(path, "w") as f:
        json.dump({"job_list": out}, f, indent=1)


def analyze_policy(a, policy, workload):
    pdir = os.path.join(a.run, policy)
    jobs, _ = load_run(pdir)
    if not jobs:
        return None
    by_name = {w["name"]: w for w in workload["job_list"]}
    horizon = max(j.end for j in jobs if j.end is not None)
    res = {"policy": policy, "response": response_stats(jobs), "by_class": class_means(jobs, by_name),
           "map": map_capacity(jobs, a.map_slots, horizon), "map_fit": map_task_fit(jobs, by_name),
           "shuffle": link_stats(jobs, horizon, a.fetch_threads), "monitor": monitor_stats(pdir),
           "estimates": estimate_sources(jobs)}
    model_csv = os.path.join(a.results, "model-%s.csv" % policy)
    done = write_model_csv(model_csv, jobs, a.map_slots, res["shuffle"]["total_rate"])
    pred, per_job = run_model(a.mr, model_csv, policy)
    res["model"] = {"policy": MODEL_POLICY[policy], "mean": pred, "error": None if pred is not None else per_job}
    if pred is not None:
        res["model"]["rel_error"] = pred / res["response"]["mean"] - 1
        res["model"]["rel_error_to_shuffle_end"] = pred / res["response"]["mean_to_shuffle_end"] - 1
        res["model"]["per_job"] = [{"name": j.name, "measured": j.response, "predicted": p}
                                   for j, p in zip(done, per_job)]
        small = set(res["by_class"]["small_names"])
        res["model"]["small_mean"] = mean([p for j, p in zip(done, per_job) if j.name in small])
        res["model"]["large_mean"] = mean([p for j, p in zip(done, per_job) if j.name not in small])
    # The same workload with the shuffle capacity jobs saw while their data waited (see
    # links.py): how much of the model's error that capacity loss explains.
    eff_csv = os.path.join(a.results, "model-%s-effective.csv" % policy)
    write_model_csv(eff_csv, jobs, a.map_slots, res["shuffle"]["effective_rate"])
    res["model"]["effective_capacity_mean"], _ = run_model(a.mr, eff_csv, policy)
    res["isolated"] = isolated_jobs(jobs, a.map_slots, res["shuffle"]["total_rate"])
    nominal, _ = run_model(a.mr, os.path.join(a.run, "nominal.csv"), policy)
    res["model"]["nominal_mean"] = nominal
    # The task-level simulator runs the live policy itself (docs/model.md): on the measured
    # sizes with the measured link rate, and on the nominal workload.
    ts_json = os.path.join(a.results, "tasksim-%s.json" % policy)
    write_tasksim_json(ts_json, jobs, by_name)
    per_worker = res["shuffle"]["total_rate"] / a.workers
    tail = res["response"]["mean_reduce_tail"]
    cv = map_time_cv(jobs)
    ts_mean, ts_err = run_tasksim(a, ts_json, policy, per_worker, tail, cv)
    res["tasksim"] = {"mean": ts_mean, "error": None if ts_mean is not None else ts_err, "map_time_cv": cv}
    res["tasksim"]["even_maps_mean"], _ = run_tasksim(a, ts_json, policy, per_worker, tail)
    if ts_mean is not None and res["response"]["mean"]:
        res["tasksim"]["rel_error"] = ts_mean / res["response"]["mean"] - 1
    res["tasksim"]["nominal_mean"], _ = run_tasksim(a, os.path.join(a.run, "workload.json"), policy,
                                                    a.bandwidth, tail)
    segs, summary = analyze_shares(jobs, horizon, a.bandwidth, a.fetch_threads)
    res["shares"] = summary
    write_segments(os.path.join(a.results, "segments-%s.csv" % policy), segs)
    return res


def estimate_sources(jobs):
    """How each job was ranked at its first scheduling: hint, online, profile or none."""
    first = {}
    for j in jobs:
        if j.estimates:
            first[j.id] = j.estimates[0][1]
    counts = {}
    for s in first.values():
        counts[s] = counts.get(s, 0) + 1
    counts["no estimate event"] = len(jobs) - len(first)
    return counts


def write_segments(path, segs):
    keys = ["job", "name", "src", "t0", "length", "share", "measured", "assigned", "lent", "in_flight", "blocked",
            "measured_in_flight", "contract"]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        for g in segs:
            w.writerow({k: (round(g[k], 4) if isinstance(g[k], float) else g[k]) for k in keys})  # None -> ''



def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mr", required=True, help="the mr binary (for `mr model tandem`)")
    p.add_argument("--run", required=True, help="bench/policies/out/MODE")
    p.add_argument("--results", required=True, help="where the summary, CSVs and plot go")
    p.add_argument("--results-md", help="bench/RESULTS.md: replace or append the policy section")
    p.add_argument("--map-slots", type=int, default=3, help="map slots in the cluster")
    p.add_argument("--bandwidth", type=float, default=20e6, help="each worker's shuffle cap, B/s")
    p.add_argument("--fetch-threads", type=int, default=32, help="each worker's max concurrent fetches (mr worker --fetch-threads)")
    p.add_argument("--workers", type=int, default=3, help="workers in the cluster")
    p.add_argument("--reduce-slots", type=int, default=2, help="reduce slots per worker")
    a = p.parse_args(argv)
    with open(os.path.join(a.run, "workload.json")) as f:
        workload = json.load(f)
    os.makedirs(a.results, exist_ok=True)
    for name in ("workload.json", "nominal.csv", "run-info.txt"):  # out/ is not kept in git
        if os.path.exists(os.path.join(a.run, name)):
            shutil.copy(os.path.join(a.run, name), os.path.join(a.results, name))
    results = []
    for policy in POLICIES:
        if os.path.isdir(os.path.join(a.run, policy)):
            print("analyze: %s" % policy, file=sys.stderr)
            r = analyze_policy(a, policy, workload)
            if r is not None:
                results.append(r)
    if not results:
        print("analyze: no policy runs under %s" % a.run, file=sys.stderr)
        return 1
    info = open(os.path.join(a.run, "run-info.txt")).read() if os.path.exists(os.path.join(a.run, "run-info.txt")) else ""
    summary = {"workload": {k: v for k, v in workload.items() if k != "job_list"}, "run_info": info,
               "policies": results}
    with open(os.path.join(a.results, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, default=str)
    plot = report.plot(results, a.results)
    md = report.markdown(summary, plot, a)
    with open(os.path.join(a.results, "summary.md"), "w") as f:
        f.write(md)
    if a.results_md:
        report.update_results_md(a.results_md, md)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
