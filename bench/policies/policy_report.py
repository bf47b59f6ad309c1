"""Markdown, plot and bench/RESULTS.md section for analyze.py (bench/policies)."""
import os
import sys
import shutil
import subprocess

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import results_md  # noqa: E402  (bench/results_md.py: one writer for every RESULTS.md section)


def f(v, fmt="%.2f"):
    return "-" if v is None else fmt % v


def pct(v):
    return "-" if v is None else "%+.0f%%" % (100 * v)


def share_pct(v):
    return "-" if v is None else "%.0f%%" % (100 * v)


def plot(results, outdir):
    """Bars per policy: measured mean, measured to shuffle end, model. Returns the png path or None."""
    if shutil.which("gnuplot") is None:
        return None
    data = os.path.join(outdir, "response.dat")
    with open(data, "w") as out:
        out.write("# policy measured to_shuffle_end model model_effective_capacity\n")
        for r in results:
            m = r["model"]
            out.write("%s %.4f %.4f %.4f %.4f\n" % (r["policy"], r["response"]["mean"] or 0,
                                                    r["response"]["mean_to_shuffle_end"] or 0, m["mean"] or 0,
                                                    m.get("effective_capacity_mean") or 0))
    png = os.path.join(outdir, "response.png")
    script = "\n".join([
        "set terminal pngcairo size 800,450 font ',10'", "set output '%s'" % png,
        "set title 'Mean response time per policy: measured on the cluster vs tandem model'",
        "set ylabel 'seconds'", "set style data histogram", "set style histogram cluster gap 1",
        "set style fill solid 0.8 border -1", "set key outside bottom center horizontal", "set yrange [0:*]",
        "set grid ytics",
        "plot '%s' using 2:xtic(1) title 'measured (job end)', '' using 3 title 'measured (shuffle end)', "
        "'' using 4 title 'model, measured sizes', '' using 5 title 'model, effective shuffle capacity'" % data])
    r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    return png if r.returncode == 0 else None


def _setup(summary, a):
    w = summary["workload"]
    lines = ["Setup (`run-info.txt`, `workload.json` and `nominal.csv` are copied next to the summary):", "",
             "```", summary["run_info"].strip(), "```", "",
             "Workload: %d synthetic jobs, seed %d, Poisson arrivals at %.3f jobs/s; nominal sizes mean x %.2f s, "
             "mean y %.2f s at full capacity (map load %.2f, shuffle load %.2f); half map-heavy, half "
             "shuffle-heavy. Nominal capacities: map %.1f CPU-s/s, shuffle %.0f MB/s." % (
                 w["jobs"], w["seed"], w["arrival_rate"], w["mean_x"], w["mean_y"], w["arrival_rate"] * w["mean_x"],
                 w["arrival_rate"] * w["mean_y"], w["nominal_map_cpu_per_s"], w["nominal_shuffle_bytes_per_s"] / 1e6), ""]
    return lines


def _response_table(results):
    base = {r["policy"]: r for r in results}.get("klps")
    lines = ["| policy | jobs ok | mean T (s) | median | p90 | mean T to shuffle end | reduce tail | model, measured "
             "sizes | model vs measured | model vs to-shuffle-end | model, effective shuffle capacity | model, "
             "nominal sizes | tasksim, measured sizes, even map times | tasksim, measured sizes and map-time cv | "
             "tasksim vs measured | tasksim, nominal sizes | "
             "T / T(klps) measured | T / T(klps) model | T / T(klps) tasksim |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        rs, m, ts = r["response"], r["model"], r.get("tasksim", {})
        ratio = ratio_m = ratio_t = None
        if base and base.get("tasksim", {}).get("mean") and ts.get("mean"):
            ratio_t = ts["mean"] / base["tasksim"]["mean"]
        if base and base["response"]["mean"] and rs["mean"]:
            ratio = rs["mean"] / base["response"]["mean"]
        if base and base["model"]["mean"] and m["mean"]:
            ratio_m = m["mean"] / base["model"]["mean"]
        cv = "%s (cv %.2f)" % (f(ts.get("mean")), ts["map_time_cv"]) if ts.get("map_time_cv") else f(ts.get("mean"))
        lines.append("| %s | %d/%d | %s | %s | %s | %s | %s | %s (%s) | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["policy"], rs["succeeded"], rs["jobs"], f(rs["mean"]), f(rs["median"]), f(rs["p90"]),
            f(rs["mean_to_shuffle_end"]), f(rs["mean_reduce_tail"]), f(m["mean"]), m["policy"],
            pct(m.get("rel_error")), pct(m.get("rel_error_to_shuffle_end")), f(m.get("effective_capacity_mean")),
            f(m.get("nominal_mean")), f(ts.get("even_maps_mean", ts.get("mean"))), cv, pct(ts.get("rel_error")),
            f(ts.get("nominal_mean")),
            f(ratio), f(ratio_m), f(ratio_t)))
    return lines


def _capacity_table(results):
    lines = ["| policy | map slot-s used / available | mean maps running when any | map wall s per CPU s | "
             "map s per MB out | shuffle per worker when busy (MB/s) | total (MB/s) | effective total while data "
             "waited (MB/s) | link idle while its data waited | of which all fetch threads elsewhere | machine "
             "busy cores | cluster cores | other cores | loadavg | jobs alone: n, mean T - max(x,y) | fetch "
             "duration p90 / max (s) |",
             "|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in results:
        mp, fit, sh, mon = r["map"], r["map_fit"] or {}, r["shuffle"], r["monitor"] or {}
        per = ", ".join("w%s %.1f" % (w, v["rate"] / 1e6) for w, v in sh["per_worker"].items() if v["rate"])
        iso = r["isolated"]
        lines.append("| %s | %.0f / %.0f (%s) | %s | %s | %s | %s | %.1f | %.1f | %s | %s | %s | %s | %s | %s | "
                     "%d, %s s | %.1f / %.1f |" % (
            r["policy"], mp["used_slot_s"], mp["available_slot_s"], share_pct(mp["utilization"]),
            f(mp["mean_running_when_busy"]), f(fit.get("wall_per_cpu_s")), f(fit.get("s_per_MB"), "%.3f"),
            per, sh["total_rate"] / 1e6, sh["effective_rate"] / 1e6, share_pct(sh["idle_while_waiting"]),
            share_pct(sh["starved_share_of_idle"]), f(mon.get("machine_busy_cores")), f(mon.get("cluster_cores")),
            f(mon.get("other_cores")), f(mon.get("loadavg1")), iso["jobs"], f(iso["mean_excess_s"]),
            sh["fetch_p90_s"], sh["fetch_max_s"]))
    return lines


def _share_table(results):
    lines = ["| policy | segments (s) | within ±10% of share×B | median measured/(share×B) | within ±10% of "
             "lending-aware rate | median measured/lending-aware | fetch in flight | no fetch, reducer's fetch "
             "threads all busy | share=1 segments: within ±10% | median ratio | in flight | blocked | limiter: "
             "time in flight | within ±10% of contract | median measured/contract |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        s = r["shares"]
        lines.append("| %s | %d (%.0f s) | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f s | %s | %s |" % (
            r["policy"], s["segments"], s["seconds"], share_pct(s["within10_assigned"]),
            f(s["median_ratio_assigned"]), share_pct(s["within10_lent"]), f(s["median_ratio_lent"]),
            share_pct(s["in_flight"]), share_pct(s["blocked"]), share_pct(s["share1_within10"]),
            f(s["share1_median_ratio"]), share_pct(s["share1_in_flight"]), share_pct(s["share1_blocked"]),
            s["contract_seconds"], share_pct(s["within10_contract"]), f(s["median_ratio_contract"])))
    return lines


def _class_table(results):
    lines = ["| policy | mean T map-heavy (s) | mean T shuffle-heavy (s) | smaller half: mean T (model) | "
             "wait to first map | larger half: mean T (model) | wait to first map | first estimate source |",
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in results:
        c, m = r["by_class"], r["model"]
        src = ", ".join("%s %d" % (k, v) for k, v in sorted(r["estimates"].items()) if v)
        lines.append("| %s | %s | %s | %s (%s) | %s | %s (%s) | %s | %s |" % (
            r["policy"], f(c["map-heavy"]), f(c["shuffle-heavy"]), f(c["small"]), f(m.get("small_mean")),
            f(c["small_first_map_wait"]), f(c["large"]), f(m.get("large_mean")), f(c["large_first_map_wait"]), src))
    return lines


def markdown(summary, png, a):
    results = summary["policies"]
    rel = os.path.dirname(os.path.abspath(a.results_md)) if a.results_md else os.path.abspath(a.results)
    out = ["## Policy experiment (issue 3)", "",
           "Generated by `bench/policies/run.sh` (analysis: `bench/policies/analyze.py`); what every number "
           "means and what the results say: `docs/policy-experiment.md`. Per-job model inputs and share segments: "
           "`%s/`." % os.path.relpath(os.path.abspath(a.results), rel), ""]
    out += _setup(summary, a)
    out += ["### Response times: measured and predicted", ""] + _response_table(results) + [""]
    if png:
        out += ["![mean response per policy](%s)" % os.path.relpath(png, rel), ""]
    out += ["### Measured capacities", ""] + _capacity_table(results) + [""]
    out += ["### Shuffle rate: measured vs assigned share", ""] + _share_table(results) + [""]
    out += ["### By class and size (halves by nominal max(x, y)), and where the size estimates came from", ""] + _class_table(results) + [""]
    return "\n".join(out)


def update_results_md(path, section):
    """Replaces the policy-experiment section of path, or appends it; other text untouched."""
    results_md.replace_section(path, "policy-experiment", section, "bench/policies/analyze.py (bench/policies/run.sh)")
