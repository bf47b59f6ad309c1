"""The rate each job can get from each source when receivers' links are bottlenecks too.

The shares' contract (shares.py) has one station per source: worker w's link carries B and
the jobs with data waiting split it by their shares; receivers are unlimited. On real links
every host's link is shaped both ways, so a reducer host also receives at most B: a job
whose one reducer fetches from two remote sources at once gets B/2 from each, whatever its
share at either source (docs/multi-host.md, "Where the bottleneck is"). No pacing at the
sources can give it more.

fair_rates computes, per time step, the weighted max-min fair allocation of the links (the
progressive filling of Bertsekas and Gallager's "Data Networks", 6.5.2) over the flows in
progress: a flow is (job j, source w, receiver d) with a fetch of j from w to a reducer on d
in flight, d != w (a fetch within one host crosses no link); its weight is j's share s_j
(share 0: a small weight, so it gets only what the others leave); every source's egress and
every receiver's ingress has capacity B. With unlimited receivers this is the contract's lent
rate s_j x B / (sum of s_k over the jobs sending from w); where a receiver's link is full it
is the receiver's fair split instead.

With by="connections" every fetch in flight weighs 1 whatever its job's share: what TCP
gives when nothing enforces the shares (the bucket's FIFO queue divides a link roughly by
connections). Comparing the measured rates with both says whether the shares or TCP
divided the links a job crossed.
"""

ZERO_SHARE_WEIGHT = 1e-3


def max_min_fair(flows, capacity):
    """flows: {flow: (weight, resources)}; every resource has `capacity`. Returns {flow: rate}."""
    rate = {f: 0.0 for f in flows}
    active = {f for f, (w, _) in flows.items() if w > 0}
    left = {}
    for _, res in flows.values():
        for r in res:
            left[r] = capacity
    while active:
        # The level increment at which the first resource saturates.
        load = {}
        for f in active:
            w, res = flows[f]
            for r in res:
                load[r] = load.get(r, 0.0) + w
        step = min(left[r] / load[r] for r in load)
        full = {r for r in load if left[r] - step * load[r] <= 1e-9 * capacity}
        for f in list(active):
            w, res = flows[f]
            rate[f] += step * w
            for r in res:
                left[r] -= step * w
        active = {f for f in active if not (set(flows[f][1]) & full)}
    return rate


def fair_rates(grid, jobs, shares, bandwidth, by="share"):
    """Per (job index, source): the list, per step, of the job's fair rate from that source.
    by: "share" (each flow weighs its job's share) or "connections" (each fetch in flight
    weighs 1: TCP's split)."""
    inflight = {}  # (ji, w, d) -> count per step
    for ji, job in enumerate(jobs):
        by_pair = {}
        for f in job.fetches:
            if f["ok"] and f["src"] != f["dst"]:
                by_pair.setdefault((f["src"], f["dst"]), []).append((f["start"], f["end"]))
        for (w, d), spans in by_pair.items():
            inflight[ji, w, d] = grid.intervals(spans)
    out = {}
    for t in range(grid.n):
        flows = {}
        for (ji, w, d), n in inflight.items():
            if n[t] > 0:
                if by == "connections":
                    weight = float(n[t])
                else:
                    s = shares[ji][t]
                    weight = s if s > 0 else ZERO_SHARE_WEIGHT
                flows[ji, w, d] = (weight, (("out", w), ("in", d)))
        if not flows:
            continue
        for (ji, w, d), r in max_min_fair(flows, bandwidth).items():
            out.setdefault((ji, w), [0.0] * grid.n)[t] += r
    return out
