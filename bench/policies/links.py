"""The shuffle station as the traces show it, per source worker (bench/policies, analyze.py).

For each worker w whose shuffle server sent data:
  rate            bytes sent / time with at least one fetch from w in flight
                  ("bytes/s achieved when the link was busy": the capacity the model gets)
  waiting_s       time with some map output on w that a reducer had not fetched yet
  idle_waiting_s  part of waiting_s with no fetch from w in flight: the link idled while
                  data for it waited, i.e. the station was not work-conserving
  starved_s       part of idle_waiting_s where every reducer worker that had data waiting on
                  w had all its fetch threads busy (on other sources): the fetch pool, not
                  the policy, kept w idle
  effective_rate  bytes sent / waiting_s: the capacity jobs actually saw while they waited
"""
from tracedata import Grid, pieces


def _union_length(spans):
    total, cur_a, cur_b = 0.0, None, None
    for a, b in sorted(spans):
        if cur_b is None or a > cur_b:
            if cur_b is not None:
                total += cur_b - cur_a
            cur_a, cur_b = a, b
        else:
            cur_b = max(cur_b, b)
    return total + (cur_b - cur_a if cur_b is not None else 0.0)


def link_stats(jobs, horizon, fetch_threads, dt=0.1):
    fetches = [f for j in jobs for f in j.fetches]
    ps = [p for j in jobs for p in pieces(j)]
    workers = sorted({f["src"] for f in fetches if f["ok"]})
    dests = sorted({f["dst"] for f in fetches})
    grid = Grid(horizon, dt)
    dest_full = {d: [n >= fetch_threads for n in grid.intervals([(f["start"], f["end"]) for f in fetches
                                                                  if f["dst"] == d])] for d in dests}
    out = {}
    for w in workers:
        mine = [f for f in fetches if f["ok"] and f["src"] == w]
        nbytes = sum(f["bytes"] for f in mine)
        busy = _union_length([(f["start"], f["end"]) for f in fetches if f["src"] == w])
        waiting = grid.intervals([(p[2], p[3]) for p in ps if p[0] == w])
        in_flight = grid.intervals([(f["start"], f["end"]) for f in fetches if f["src"] == w])
        waiting_to = {d: grid.intervals([(p[2], p[3]) for p in ps if p[0] == w and p[1] == d]) for d in dests}
        wait_steps = idle_steps = starved_steps = 0
        for i in range(grid.n):
            if waiting[i] <= 0:
                continue
            wait_steps += 1
            if in_flight[i] > 0:
                continue
            idle_steps += 1
            if all(dest_full[d][i] for d in dests if waiting_to[d][i] > 0):
                starved_steps += 1
        wait_s = wait_steps * dt
        out[w] = {"bytes": nbytes, "busy_s": busy, "rate": nbytes / busy if busy else None,
                  "waiting_s": wait_s, "idle_waiting_s": idle_steps * dt, "starved_s": starved_steps * dt,
                  "effective_rate": nbytes / wait_s if wait_s else None}
    total = sum(v["rate"] for v in out.values() if v["rate"])
    effective = sum(v["effective_rate"] for v in out.values() if v["effective_rate"])
    waiting = sum(v["waiting_s"] for v in out.values())
    idle = sum(v["idle_waiting_s"] for v in out.values())
    starved = sum(v["starved_s"] for v in out.values())
    durations = sorted(f["end"] - f["start"] for f in fetches if f["ok"])
    return {"per_worker": out, "total_rate": total, "effective_rate": effective,
            "fetch_p90_s": durations[int(0.9 * (len(durations) - 1))] if durations else 0.0,
            "fetch_max_s": durations[-1] if durations else 0.0,
            "idle_while_waiting": idle / waiting if waiting else None,
            "starved_share_of_idle": starved / idle if idle else None}
