"""Measured vs assigned shuffle rate per job (bench/policies, used by analyze.py).

The runtime's contract (docs/shuffle.md): each worker's shuffle server has capacity B and
serves the jobs that have a chunk waiting in proportion to their shares; capacity a job
cannot use is lent to the others. The master's `share` trace events give each job's share
s_j(t) (the same fraction on every worker).

For every job j and source worker w this module cuts the run into *segments*: maximal
stretches of at least MIN_SEGMENT seconds where s_j > 0 is constant and j had data on w
that a reducer had not fetched yet (it was "backlogged" in the policy's sense). Per segment:

  measured  = bytes of j sent by w in the segment / its length, from w's own `served`
              reports (250 ms intervals); traces without them spread each fetch's bytes
              evenly over the fetch
  assigned  = s_j x B                                   (what the brief compares with)
  lent      = mean over the segment of B x s_j / sum of s_k over jobs k with s_k > 0 and
              data available on w                       (the contract, lending included)
  in_flight = fraction of the segment with at least one fetch of j from w in progress
  contract  = the limiter's own promise while j has a fetch in flight on w: mean over those
              steps of B x s_j / sum of s_k over jobs k with s_k > 0 and a fetch in flight on w;
              compared with measured_in_flight = bytes / time with a fetch in flight
  blocked   = fraction with no fetch of j from w in progress although every reducer
              worker that j's available data was waiting for had all its fetch threads busy

Results are summed over segments weighted by their length.
"""
from fair_rates import fair_rates
from tracedata import Grid, pieces

MIN_SEGMENT = 1.0   # seconds; shorter stretches are dominated by per-fetch granularity
TOLERANCE = 0.10


def _per_job_worker_arrays(grid, jobs, workers):
    """For each (job index, src): available pieces, in-flight fetches, bytes per step;
    also, per job and (src, dst), available pieces (to tell which reducer worker waits)."""
    avail, inflight, nbytes, avail_dst = {}, {}, {}, {}
    for ji, job in enumerate(jobs):
        ps = pieces(job)
        for w in workers:
            mine = [p for p in ps if p[0] == w]
            avail[ji, w] = grid.intervals([(p[2], p[3]) for p in mine])
            fs = [f for f in job.fetches if f["ok"] and f["src"] == w]
            inflight[ji, w] = grid.intervals([(f["start"], f["end"]) for f in fs])
            if job.served:  # the source server's own per-interval count (trace event `served`)
                nbytes[ji, w] = grid.spread([(v["start"], v["end"], v["bytes"]) for v in job.served if v["src"] == w])
            else:  # older traces: each fetch's bytes spread evenly over the fetch
                nbytes[ji, w] = grid.spread([(f["start"], f["end"], f["bytes"]) for f in fs])
            for d in workers:
                sel = [(p[2], p[3]) for p in mine if p[1] == d]
                if sel:
                    avail_dst[ji, w, d] = grid.intervals(sel)
    return avail, inflight, nbytes, avail_dst


def _dest_busy(grid, jobs, workers, fetch_threads):
    """Per reducer worker d: True per step when all its fetch threads are in use."""
    busy = {}
    for d in workers:
        spans = [(f["start"], f["end"]) for job in jobs for f in job.fetches if f["dst"] == d]
        busy[d] = [n >= fetch_threads for n in grid.intervals(spans)]
    return busy


def _segments(share, avail):
    """Maximal runs of steps with share > 0 constant and data available: (i, k) half-open."""
    out, i, n = [], 0, len(share)
    while i < n:
        if share[i] <= 0 or avail[i] <= 0:
            i += 1
            continue
        k = i
        while k < n and share[k] == share[i] and avail[k] > 0:
            k += 1
        out.append((i, k))
        i = k
    return out


def _zero_share_at_receivers(grid, jobs, shares):
    """Per (job index, source): 1 per step when one of the job's remote fetches from the
    source goes into a host that a share-0 job's remote fetch is also coming into."""
    pair, into_zero = {}, {}
    for ji, job in enumerate(jobs):
        by = {}
        for f in job.fetches:
            if f["ok"] and f["src"] != f["dst"]:
                by.setdefault((f["src"], f["dst"]), []).append((f["start"], f["end"]))
        for (w, d), spans in by.items():
            pair[ji, w, d] = grid.intervals(spans)
    for (ji, w, d), n in pair.items():
        row = into_zero.setdefault(d, [0] * grid.n)
        for t in range(grid.n):
            if n[t] > 0 and shares[ji][t] <= 0:
                row[t] = 1
    out = {}
    for (ji, w, d), n in pair.items():
        row = out.setdefault((ji, w), [0] * grid.n)
        zero = into_zero.get(d)
        for t in range(grid.n):
            if n[t] > 0 and shares[ji][t] > 0 and zero[t]:
                row[t] = 1
    return out


def analyze_shares(jobs, horizon, bandwidth, fetch_threads, dt=0.1, fair=False):
    """Returns (segments, summary). bandwidth: each worker's cap B in bytes/s. With fair, each
    segment also gets `fair`: the mean of the job's weighted max-min fair rate from the source
    when every receiver's link also carries at most B (fair_rates.py; shaped links), and
    `tcp`: the same split with every fetch in flight weighing 1 (TCP's split), and
    `zero_at_receivers`: the fraction of the segment in which a share-0 job's remote fetch
    came into a host the job's own fetches from the source were coming into."""
    workers = sorted({m["worker"] for j in jobs for m in j.maps} | {f["dst"] for j in jobs for f in j.fetches})
    grid = Grid(horizon, dt)
    shares = [grid.steps(sorted(j.shares)) for j in jobs]
    avail, inflight, nbytes, avail_dst = _per_job_worker_arrays(grid, jobs, workers)
    dest_busy = _dest_busy(grid, jobs, workers, fetch_threads)
    min_steps = int(round(MIN_SEGMENT / dt))
    fair_by = fair_rates(grid, jobs, shares, bandwidth) if fair else None
    tcp_by = fair_rates(grid, jobs, shares, bandwidth, by="connections") if fair else None
    zero_by = _zero_share_at_receivers(grid, jobs, shares) if fair else None
    segs = []
    for ji, job in enumerate(jobs):
        for w in workers:
            for i, k in _segments(shares[ji], avail[ji, w]):
                if k - i < min_steps:
                    continue
                seg = _measure(ji, job, w, i, k, grid, shares, avail, inflight, nbytes, avail_dst, dest_busy,
                               workers, bandwidth)
                if fair_by is not None:
                    rates = fair_by.get((ji, w))
                    seg["fair"] = sum(rates[i:k]) / (k - i) if rates else 0.0
                    rates = tcp_by.get((ji, w))
                    seg["tcp"] = sum(rates[i:k]) / (k - i) if rates else 0.0
                    rates = zero_by.get((ji, w))
                    seg["zero_at_receivers"] = sum(rates[i:k]) / (k - i) if rates else 0.0
                segs.append(seg)
    return segs, _summarize(segs)


def _measure(ji, job, w, i, k, grid, shares, avail, inflight, nbytes, avail_dst, dest_busy, workers, bw):
    s = shares[ji][i]
    length = (k - i) * grid.dt
    lent = in_flight = blocked = contract = 0.0
    others = range(len(shares))
    for t in range(i, k):
        total = sum(shares[j][t] for j in others if shares[j][t] > 0 and avail[j, w][t] > 0)
        lent += bw * s / total if total > 0 else bw
        if inflight[ji, w][t] > 0:
            in_flight += 1
            total = sum(shares[j][t] for j in others if shares[j][t] > 0 and inflight[j, w][t] > 0)
            contract += bw * s / total
            continue
        waiting = [d for d in workers if (ji, w, d) in avail_dst and avail_dst[ji, w, d][t] > 0]
        if waiting and all(dest_busy[d][t] for d in waiting):
            blocked += 1
    n = k - i
    got = sum(nbytes[ji, w][i:k])
    return {"job": job.id, "name": job.name, "src": w, "t0": round(i * grid.dt, 2), "length": round(length, 2),
            "share": s, "measured": got / length, "assigned": s * bw,
            "lent": lent / n, "in_flight": in_flight / n, "blocked": blocked / n,
            "in_flight_s": in_flight * grid.dt,
            "measured_in_flight": got / (in_flight * grid.dt) if in_flight else None,
            "contract": contract / in_flight if in_flight else None}


def _summarize(segs):
    """Length-weighted fractions; ratios use measured / reference."""
    def frac(sel, key):
        tot = sum(g["length"] for g in sel)
        if tot == 0:
            return None
        ok = sum(g["length"] for g in sel if abs(g["measured"] / g[key] - 1) <= TOLERANCE)
        return ok / tot

    def wmean(sel, f):
        tot = sum(g["length"] for g in sel)
        return sum(f(g) * g["length"] for g in sel) / tot if tot else None

    def median_ratio(sel, key):
        r = sorted(g["measured"] / g[key] for g in sel)
        return r[len(r) // 2] if r else None

    def contract_frac(sel):
        sel = [g for g in sel if g["in_flight_s"] >= MIN_SEGMENT / 2]
        tot = sum(g["in_flight_s"] for g in sel)
        ok = sum(g["in_flight_s"] for g in sel if abs(g["measured_in_flight"] / g["contract"] - 1) <= TOLERANCE)
        r = sorted(g["measured_in_flight"] / g["contract"] for g in sel)
        return (ok / tot if tot else None), (r[len(r) // 2] if r else None), round(tot, 1)

    full = [g for g in segs if g["share"] >= 0.999]
    c_frac, c_median, c_seconds = contract_frac(segs)
    # Against the fair rate: a segment with no remote fetch in flight (fair 0) has nothing to
    # compare; it is left out of these two.
    with_fair = [g for g in segs if g.get("fair", 0) > 0]
    with_tcp = [g for g in segs if g.get("tcp", 0) > 0]
    return {
        "zero_at_receivers": wmean(segs, lambda g: g.get("zero_at_receivers", 0)),
        "within10_tcp": frac(with_tcp, "tcp"), "median_ratio_tcp": median_ratio(with_tcp, "tcp"),
        "within10_fair": frac(with_fair, "fair"), "median_ratio_fair": median_ratio(with_fair, "fair"),
        "fair_seconds": round(sum(g["length"] for g in with_fair), 1),
        "segments": len(segs), "seconds": round(sum(g["length"] for g in segs), 1),
        "within10_assigned": frac(segs, "assigned"), "within10_lent": frac(segs, "lent"),
        "median_ratio_assigned": median_ratio(segs, "assigned"), "median_ratio_lent": median_ratio(segs, "lent"),
        "in_flight": wmean(segs, lambda g: g["in_flight"]), "blocked": wmean(segs, lambda g: g["blocked"]),
        "share1_segments": len(full), "share1_within10": frac(full, "assigned"),
        "share1_median_ratio": median_ratio(full, "assigned"),
        "share1_in_flight": wmean(full, lambda g: g["in_flight"]),
        "share1_blocked": wmean(full, lambda g: g["blocked"]),
        "within10_contract": c_frac, "median_ratio_contract": c_median, "contract_seconds": c_seconds,
    }
