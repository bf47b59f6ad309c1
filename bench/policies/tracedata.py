"""Reads one policy run of bench/policies (the per-job JSON-lines traces of
docs/trace-format.md) into plain objects, and lays the shuffle out on a time grid.

Used by analyze.py; standard library only. Times are seconds since the run's first
job_submit. Only facts from the traces are used: a map's output is on the worker of its
successful attempt from that attempt's end; a piece (map m, reducer r) is *available* from
then until the successful fetch of it ends; a fetch's bytes are spread evenly over
[start, end] (the trace has no finer record of a transfer).
"""
import glob
import json
import os


class Job:
    """One job as its trace shows it."""

    def __init__(self, jid):
        self.id = jid
        self.name = ""
        self.submit = None
        self.end = None
        self.response = None
        self.status = None
        self.maps = []      # dicts: task, worker, start, end, bytes_out, ok
        self.fetches = []   # dicts: task, map, src, dst, start, end, bytes, ok
        self.reduces = []   # dicts: task, worker, start, end, ok
        self.shares = []    # (t, share), in trace order
        self.estimates = []  # (t, source, map_seconds, shuffle_bytes)
        self.served = []    # dicts: src, start, end, bytes (the source server's own count)

    def map_slot_seconds(self):
        """Map slot time used, failed attempts included (they occupied a slot too)."""
        return sum(m["end"] - m["start"] for m in self.maps)

    def shuffle_bytes(self):
        return sum(f["bytes"] for f in self.fetches if f["ok"])

    def last_fetch_end(self):
        ends = [f["end"] for f in self.fetches if f["ok"]]
        return max(ends) if ends else None

    def map_output_location(self):
        """map task -> (worker, end time) of its successful attempt."""
        return {m["task"]: (m["worker"], m["end"]) for m in self.maps if m["ok"]}


def _apply(job, e, t):
    ev = e["event"]
    if ev == "job_submit":
        job.name, job.submit = e.get("name", ""), t
    elif ev == "job_end":
        job.end, job.response, job.status = t, e.get("response_time"), e.get("status")
    elif ev == "attempt_end":
        rec = {"task": e["task"], "worker": e["worker"], "start": e["start"], "end": t,
               "ok": e.get("status") == "ok"}
        if e["task"].startswith("m-"):
            rec["bytes_out"] = e.get("bytes_out", 0)
            job.maps.append(rec)
        else:
            job.reduces.append(rec)
    elif ev == "fetch_end":
        job.fetches.append({"task": e["task"], "map": e["map"], "src": e["src_worker"],
                            "dst": e.get("worker"), "start": e["start"], "end": t,
                            "bytes": e.get("bytes", 0), "ok": e.get("status") == "ok"})
    elif ev == "share":
        job.shares.append((t, e["share"]))
    elif ev == "served":
        job.served.append({"src": e["worker"], "start": e["start"], "end": t, "bytes": e.get("bytes", 0)})
    elif ev == "estimate":
        job.estimates.append((t, e.get("source"), e.get("map_seconds"), e.get("shuffle_bytes")))


def load_run(policy_dir):
    """Returns (jobs sorted by submit time, t0 = first submit on the trace clock)."""
    raw = []
    for path in sorted(glob.glob(os.path.join(policy_dir, "traces", "*.jsonl"))):
        with open(path) as f:
            raw.append([json.loads(line) for line in f if line.strip()])
    submits = [e["t"] for evs in raw for e in evs if e["event"] == "job_submit"]
    if not submits:
        return [], 0.0
    t0 = min(submits)
    jobs = []
    for evs in raw:
        job = Job(evs[0]["job"])
        for e in evs:
            if "start" in e:  # attempt/fetch records carry their start on the same clock
                e["start"] -= t0
            _apply(job, e, e["t"] - t0)
        jobs.append(job)
    jobs.sort(key=lambda j: (j.submit if j.submit is not None else 1e18, j.id))
    return jobs, t0


class Grid:
    """Step arrays on [0, horizon) with step dt; each array is a list of floats."""

    def __init__(self, horizon, dt):
        self.dt = dt
        self.n = max(1, int(horizon / dt) + 1)

    def index(self, t):
        return min(self.n - 1, max(0, int(t / self.dt)))

    def intervals(self, spans):
        """Count of open intervals [a, b) per step (difference array, step starts)."""
        d = [0] * (self.n + 1)
        for a, b in spans:
            i, k = self.index(a), self.index(b)
            if k > i:
                d[i] += 1
                d[k] -= 1
        out, run = [0] * self.n, 0
        for i in range(self.n):
            run += d[i]
            out[i] = run
        return out

    def spread(self, transfers):
        """Bytes per step, each (a, b, bytes) spread evenly over [a, b]."""
        out = [0.0] * self.n
        for a, b, nbytes in transfers:
            if b <= a:
                out[self.index(a)] += nbytes
                continue
            rate = nbytes / (b - a)
            i = self.index(a)
            while i < self.n and i * self.dt < b:
                lo, hi = max(a, i * self.dt), min(b, (i + 1) * self.dt)
                if hi > lo:
                    out[i] += rate * (hi - lo)
                i += 1
        return out

    def steps(self, changes, default=0.0):
        """Value per step of a step function given as sorted (t, value) changes."""
        out, v, k = [default] * self.n, default, 0
        for i in range(self.n):
            t = i * self.dt
            while k < len(changes) and changes[k][0] <= t:
                v = changes[k][1]
                k += 1
            out[i] = v
        return out


def pieces(job):
    """Available-data intervals per piece: list of (src, dst, available_from, fetched_at)."""
    loc = job.map_output_location()
    done = {}
    for f in job.fetches:
        if f["ok"]:
            done[(f["map"], f["task"])] = (f["end"], f["dst"])
    out = []
    for (m, r), (end, dst) in done.items():
        if m in loc:
            src, ready = loc[m]
            out.append((src, dst, ready, end))
    return out
