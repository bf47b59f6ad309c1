#!/usr/bin/env python3
"""Plays one workload against one running cluster: the arrival process and the waiting.

Submits every job of a workload (workload.py's JSON) with `mr submit synthetic` at its
arrival time (sleeping until then: the sleep *is* the Poisson arrival process, no work is
faked), then polls `mr status --json` until every submitted job has finished or --timeout
seconds have passed since the first submission. Meanwhile it samples, once a second, the
machine's load and how much CPU the cluster's processes got, because the cluster shares
its 2 cores with whatever else runs on the machine (docs/policy-experiment.md, "Calibration").

Writes into --out: submitted.json (job id, name, planned and actual submit offsets),
status.json (the last `mr status --json`), monitor.csv. Exit status: 0 when every job
succeeded, 1 when a job failed or the timeout hit, 2 on bad usage or a failed submit.

  driver.py --mr build/cli/mr --master HOST:PORT --cluster-dir D --workload W.json \
            --outputs DIR --out DIR [--timeout 900]
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import threading
import time

FINAL_STATES = ("SUCCEEDED", "FAILED")


def submit_args(mr, master, job, outputs):
    return [mr, "submit", "synthetic", "--master", master, "--name", job["name"],
            "--output", os.path.join(outputs, job["name"]),
            "--maps", str(job["maps"]), "--map-seconds", str(job["map_seconds"]),
            "--map-bytes", str(job["map_bytes"]), "--reducers", str(job["reducers"]),
            "--seed", str(job["index"] + 1),
            "--hint-map-seconds", str(job["hint_map_seconds"]),
            "--hint-shuffle-bytes", str(job["hint_shuffle_bytes"])]


def submit_all(a, jobs, start):
    """Submits in arrival order, each at start + arrival; returns the submitted records."""
    done = []
    for job in sorted(jobs, key=lambda j: j["arrival"]):
        delay = start + job["arrival"] - time.monotonic()
        if delay > 0:
            time.sleep(delay)  # the arrival process
        at = time.monotonic() - start
        r = subprocess.run(submit_args(a.mr, a.master, job, a.outputs), capture_output=True, text=True)
        if r.returncode != 0:
            print("driver: submit of %s failed: %s" % (job["name"], r.stderr.strip()), file=sys.stderr)
            return done, False
        done.append({"id": r.stdout.strip(), "name": job["name"], "planned": job["arrival"],
                     "submitted": round(at, 3)})
        print("driver: t=%6.1fs submitted %s as %s" % (at, job["name"], done[-1]["id"]), file=sys.stderr)
    return done, True


def cluster_status(a):
    r = subprocess.run([a.mr, "status", "--json", "--master", a.master], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    return json.loads(r.stdout)


def wait_all(a, ids, start):
    """Polls until every id is final or the timeout passes; returns (status, all_final)."""
    last = None
    while True:
        st = cluster_status(a)
        if st is not None:
            last = st
            states = {j["id"]: j["state"] for j in st["jobs"]}
            left = [i for i in ids if states.get(i) not in FINAL_STATES]
            if not left:
                return last, True
        if time.monotonic() - start > a.timeout:
            print("driver: timeout after %.0fs; unfinished: %s" % (a.timeout, ", ".join(left)), file=sys.stderr)
            return last, False
        time.sleep(1.0)


def read_cpu_ticks(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime
    except (OSError, ValueError, IndexError):
        return 0


def machine_ticks():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + v[4]
    return sum(v), idle


class Monitor(threading.Thread):
    """Once a second: load average, machine CPU busy (cores), cluster CPU (cores)."""

    def __init__(self, cluster_dir, path):
        super().__init__(daemon=True)
        self.pids = []
        for p in glob.glob(os.path.join(cluster_dir, "*.pid")):
            with open(p) as f:
                self.pids.append(int(f.read().strip()))
        self.path = path
        self.stop = threading.Event()

    def run(self):
        hz = os.sysconf("SC_CLK_TCK")
        ncpu = os.cpu_count() or 1
        with open(self.path, "w") as out:
            out.write("t,loadavg1,machine_busy_cores,cluster_cores\n")
            tot0, idle0 = machine_ticks()
            cl0 = sum(read_cpu_ticks(p) for p in self.pids)
            t0 = time.time()
            while not self.stop.wait(1.0):
                tot, idle = machine_ticks()
                cl = sum(read_cpu_ticks(p) for p in self.pids)
                t = time.time()
                busy = ncpu * (1 - (idle - idle0) / max(1, tot - tot0))
                with open("/proc/loadavg") as f:
                    load1 = f.read().split()[0]
                out.write("%.3f,%s,%.3f,%.3f\n" % (t, load1, busy, (cl - cl0) / hz / max(1e-6, t - t0)))
                out.flush()
                tot0, idle0, cl0, t0 = tot, idle, cl, t


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mr", required=True)
    p.add_argument("--master", required=True)
    p.add_argument("--cluster-dir", required=True, help="the mr cluster --dir (for the pid files)")
    p.add_argument("--workload", required=True)
    p.add_argument("--outputs", required=True, help="directory for the jobs' output directories")
    p.add_argument("--out", required=True)
    p.add_argument("--timeout", type=float, default=900)
    a = p.parse_args(argv)
    with open(a.workload) as f:
        jobs = json.load(f)["job_list"]
    os.makedirs(a.out, exist_ok=True)
    os.makedirs(a.outputs, exist_ok=True)
    mon = Monitor(a.cluster_dir, os.path.join(a.out, "monitor.csv"))
    mon.start()
    start = time.monotonic()
    submitted, ok = submit_all(a, jobs, start)
    with open(os.path.join(a.out, "submitted.json"), "w") as f:
        json.dump(submitted, f, indent=1)
    status, finished = wait_all(a, [s["id"] for s in submitted], start)
    mon.stop.set()
    mon.join()
    with open(os.path.join(a.out, "status.json"), "w") as f:
        json.dump(status, f, indent=1)
    if not ok:
        return 2
    failed = [j["id"] for j in (status or {"jobs": []})["jobs"] if j["state"] == "FAILED"]
    if failed:
        print("driver: failed jobs: %s" % ", ".join(failed), file=sys.stderr)
    print("driver: %d jobs, all finished after %.0fs" % (len(submitted), time.monotonic() - start)
          if finished else "driver: not all jobs finished", file=sys.stderr)
    return 0 if finished and not failed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
