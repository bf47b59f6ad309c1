#!/usr/bin/env python3
"""Report helper for bench/throughput.sh and bench/check.sh.

  report.py record --json F --markdown F --mode full|quick --times TSV --commands TSV ...
      Computes medians and ratios (mr time / peer time) from the timing rows, merges them
      into F.json under the mode (other modes are kept) and renders RESULTS.md from the
      whole JSON, as the "throughput" section of RESULTS.md (bench/results_md.py): other
      sections (the policy experiment, hand-written notes) are left as they are.
  report.py summary --times TSV --commands TSV
      Prints the medians (min-max), CPU medians and the ratios to stdout; writes nothing.
  report.py plot --json F --output F.svg
      Log-log plot (gnuplot) of median time against input size over every mode of F.json.
  report.py check --baseline F --fresh F [--threshold 0.2]
      Compares the fresh quick run's ratios with the baseline's (its "quick" section, else
      "full") and exits 1 if any ratio grew by more than the threshold.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys

import results_md

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def machine_info():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem_gib = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem_gib = round(int(line.split()[1]) / (1 << 20), 1)
    except OSError:
        pass
    os_name = platform.system()
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    os_name = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass

    def cmd(args):
        try:
            return subprocess.run(args, capture_output=True, text=True, cwd=ROOT, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return "unknown"

    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "mem_gib": mem_gib,
        "kernel": platform.release(),
        "os": os_name,
        "compiler": cmd(["c++", "--version"]).splitlines()[0] if cmd(["c++", "--version"]) != "unknown" else "unknown",
        "commit": cmd(["git", "rev-parse", "--short", "HEAD"]),
        "dirty": cmd(["git", "--no-optional-locks", "status", "--porcelain", "--untracked-files=no"]) not in ("", "unknown"),
    }


def relative(cmdline):
    return cmdline.replace(ROOT + "/", "").strip()


def is_mr(tool):
    return tool == "mr" or tool.startswith("mr-")


def compute_ratios(rows):
    """mr rows against peer rows of the same group; key 'group:mr-tool/peer-tool'.

    mr variants are the tools named "mr" or "mr-*"; everything else (MR-MPI is "mrmpi") is a peer.
    """
    groups = {}
    for r in rows:
        group, tool = r["name"].split(".", 1)
        groups.setdefault(group, {})[tool] = r["median_s"]
    ratios = {}
    for group, tools in groups.items():
        for mr_tool, mr_t in tools.items():
            if not is_mr(mr_tool):
                continue
            for peer, peer_t in tools.items():
                if is_mr(peer) or peer_t <= 0:
                    continue
                ratios[f"{group}:{mr_tool}/{peer}"] = round(mr_t / peer_t, 3)
    return ratios


def read_times(times_path, commands_path):
    """Rows of throughput.sh's times.tsv, one per command, in the commands' order.

    A times row is "name run wall rss tree job [user sys]" (older files lack user and sys).
    """
    times = {}
    for line in open(times_path):
        f = line.rstrip("\n").split("\t")
        name, run, secs, rss, tree, job = f[:6]
        t = times.setdefault(name, {"times": [], "cpu": [], "rss": [], "tree": None, "job": []})
        t["times"].append(float(secs))
        if len(f) >= 8:
            t["cpu"].append(round(float(f[6]) + float(f[7]), 2))
        if job != "-":
            t["job"].append(float(job))
        t["rss"].append(int(rss))
        if tree != "-":
            t["tree"] = int(tree)
    rows = []
    for line in open(commands_path):
        name, nbytes, cmdline = line.rstrip("\n").split("\t", 2)
        t = times[name]
        med = statistics.median(t["times"])
        rows.append({
            "name": name,
            "input_bytes": int(nbytes),
            "command": relative(cmdline),
            "times_s": t["times"],
            "median_s": med,
            "cpu_s": t["cpu"],
            "cpu_median_s": statistics.median(t["cpu"]) if t["cpu"] else None,
            "job_median_s": statistics.median(t["job"]) if t["job"] else None,
            "mb_per_s": round(int(nbytes) / 1e6 / med, 1) if med > 0 else None,
            "max_process_rss_kib": max(t["rss"]),
            "tree_rss_kib": t["tree"],
        })
    return rows


def compute_pairs(rows):
    """Per mr variant and peer of one group: the wall ratio of medians, the min-max of the
    run-by-run ratios (run i of mr / run i of the peer, taken in the same round), and the
    CPU (user + system) ratio of medians."""
    groups = {}
    for r in rows:
        group, tool = r["name"].split(".", 1)
        groups.setdefault(group, {})[tool] = r
    pairs = {}
    for group, tools in groups.items():
        for mr_tool, m in tools.items():
            if not is_mr(mr_tool):
                continue
            for peer, p in tools.items():
                if is_mr(peer) or p["median_s"] <= 0:
                    continue
                per_run = [a / b for a, b in zip(m["times_s"], p["times_s"]) if b > 0]
                cpu = None
                if m.get("cpu_median_s") and p.get("cpu_median_s"):
                    cpu = round(m["cpu_median_s"] / p["cpu_median_s"], 3)
                pairs[f"{group}:{mr_tool}/{peer}"] = {
                    "wall": round(m["median_s"] / p["median_s"], 3),
                    "wall_min": round(min(per_run), 3), "wall_max": round(max(per_run), 3),
                    "cpu": cpu}
    return pairs


def summary(a):
    rows = read_times(a.times, a.commands)
    print(f"{'command':28} {'wall median (min-max) s':>26} {'user+sys median s':>18}")
    for r in rows:
        cpu = "-" if r["cpu_median_s"] is None else f"{r['cpu_median_s']:.2f}"
        print(f"{r['name']:28} {r['median_s']:9.2f} ({min(r['times_s']):.2f}-{max(r['times_s']):.2f}) "
              f"{cpu:>18}")
    print(f"{'ratio':34} {'wall (min-max)':>22} {'cpu':>6}")
    for key, v in compute_pairs(rows).items():
        cpu = "-" if v["cpu"] is None else f"{v['cpu']:.2f}"
        print(f"{key:34} {v['wall']:8.2f} ({v['wall_min']:.2f}-{v['wall_max']:.2f}) {cpu:>6}")
    return 0


def group_of(name):
    return name.split(".", 1)[0]


def keep_other_jobs(modes, mode, groups):
    """A run of some jobs of a mode (`--jobs sort`, then `--jobs wordcount`, as a scale run
    that would not fit the disk at once is made) replaces only those jobs' rows: an earlier
    entry of the mode keeps its other jobs, with its own date, commit and settings, under
    "MODE (jobs)". Returns the key for the new entry: MODE alone when no other entry of the
    mode is left."""
    for key in [k for k in modes if k == mode or k.startswith(mode + " (")]:
        m = modes.pop(key)
        m["rows"] = [r for r in m["rows"] if group_of(r["name"]) not in groups]
        if not m["rows"]:
            continue
        m["ratios"] = {k: v for k, v in m["ratios"].items() if group_of(k.split(":", 1)[0]) not in groups}
        m["pairs"] = {k: v for k, v in m.get("pairs", {}).items() if group_of(k.split(":", 1)[0]) not in groups}
        m["checks"] = [c for c in m["checks"]  # "grep: ..." checks the grep-literal and grep-regex rows
                       if not any(g == c.split(":", 1)[0] or g.startswith(c.split(":", 1)[0] + "-") for g in groups)]
        kept = sorted({group_of(r["name"]) for r in m["rows"]})
        modes[f"{mode} ({', '.join(kept)})"] = m
    if any(k.startswith(mode + " (") for k in modes):
        return f"{mode} ({', '.join(sorted(groups))})"
    return mode


def record(a):
    rows = read_times(a.times, a.commands)
    data = {}
    if os.path.exists(a.json):
        with open(a.json) as f:
            data = json.load(f)
    data.setdefault("modes", {})
    data["machine"] = machine_info()
    key = keep_other_jobs(data["modes"], a.mode, {r["name"].split(".", 1)[0] for r in rows})
    data["modes"][key] = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "size_mib": a.size_mib,
        "runs": a.runs,
        "machine": data["machine"],
        "loadavg": a.loadavg,
        "settings": dict(s.split("=", 1) for s in a.setting),
        "checks": a.check,
        "reproduce": a.reproduce,
        "rows": rows,
        "ratios": compute_ratios(rows),
        "pairs": compute_pairs(rows),
    }
    with open(a.json, "w") as f:
        json.dump(data, f, indent=2, sort_keys=True)
        f.write("\n")
    results_md.replace_section(a.markdown, "throughput", render(data), "bench/throughput.sh",
                               new_file_header="# Benchmark results\n")


def fmt_kib(k):
    return "-" if k is None else f"{k / 1024:.0f} MiB"


def render(data):
    out = ["## Throughput", "",
           "Generated by `bench/throughput.sh` from `bench/results.json`; rerun the script rather than",
           "editing the tables. What is measured and why: `docs/benchmarks.md`.", ""]
    order = ["full", "quick"] + sorted(k for k in data["modes"] if k not in ("full", "quick"))
    for mode in order:
        m = data["modes"].get(mode)
        if not m:
            continue
        mc = m["machine"]
        base, _, jobs = mode.partition(" (")
        title = {"full": "Full run", "quick": "Quick run (the baseline `bench/check.sh` compares against)"}.get(
            base, f"Scale run ({base})") + (f", {jobs[:-1]} only" if jobs else "")
        out += [f"### {title}: {m['size_mib']} MiB inputs, median of {m['runs']} run(s)", ""]
        out += [f"- date: {m['date']}; commit {mc['commit']}{' (with uncommitted changes)' if mc.get('dirty') else ''}",
                f"- machine: {mc['nproc']} CPUs (`nproc`), {mc['cpu']}, {mc['mem_gib']} GiB RAM, "
                f"{mc['os']}, kernel {mc['kernel']}, {mc['compiler']}",
                f"- load average (1/5/15 min) at start: {m['loadavg'][0]}; at end: {m['loadavg'][-1]}",
                "- settings: " + ", ".join(f"{k} `{v}`" for k, v in m["settings"].items()),
                f"- reproduce: `{m['reproduce']}`", ""]
        out += ["| benchmark | tool | median (s) | MB/s | all runs (s) | user+sys median (s) | mr job alone (s) "
                "| peak RSS, largest process | peak RSS, process tree |",
                "|---|---|---:|---:|---|---:|---:|---:|---:|"]
        for r in m["rows"]:
            group, tool = r["name"].split(".", 1)
            runs = ", ".join(f"{t:.2f}" for t in r["times_s"])
            job = "-" if r.get("job_median_s") is None else f"{r['job_median_s']:.2f}"
            cpu = "-" if r.get("cpu_median_s") is None else f"{r['cpu_median_s']:.2f}"
            out.append(f"| {group} | {tool} | {r['median_s']:.2f} | {r['mb_per_s']} | {runs} | {cpu} | {job} | "
                       f"{fmt_kib(r['max_process_rss_kib'])} | {fmt_kib(r['tree_rss_kib'])} |")
        out += ["", "Ratios, mr time / peer time (below 1: mr is faster); wall: ratio of medians "
                "(min-max of the run-by-run ratios); CPU: user+sys, ratio of medians:", "",
                "| benchmark | mr variant / peer | wall (min-max) | CPU |", "|---|---|---:|---:|"]
        for key, v in m["ratios"].items():
            group, pair = key.split(":", 1)
            p = m.get("pairs", {}).get(key)
            if p:
                cpu = "-" if p["cpu"] is None else f"{p['cpu']:.2f}"
                out.append(f"| {group} | {pair} | {p['wall']:.2f} ({p['wall_min']:.2f}-{p['wall_max']:.2f}) | {cpu} |")
            else:
                out.append(f"| {group} | {pair} | {v:.2f} | - |")
        out += ["", "Commands (run from the repository root; inputs in `bench/data/`):", "", "```"]
        out += [f"{r['name']}: {r['command']}" for r in m["rows"]]
        out += ["```", "", "Output checks (done before the report is written):", ""]
        out += [f"- {c}" for c in m["checks"]]
        out += [""]
    return "\n".join(out)


def plot(a):
    """Log-log plot of median wall time against input size, one line per command, from every
    mode of results.json (quick, full and the scale runs); needs gnuplot."""
    data = json.load(open(a.json))
    series = {}
    for m in data.get("modes", {}).values():
        for r in m["rows"]:
            series.setdefault(r["name"], []).append((r["input_bytes"] / (1 << 20), r["median_s"]))
    series = {k: sorted(v) for k, v in series.items() if any(t > 0 for _, t in v)}
    if not series:
        print("plot: no timings in " + a.json)
        return 1
    dat = a.output + ".dat"
    with open(dat, "w") as f:
        for name, pts in series.items():
            f.write(f"# {name}\n")
            for mib, t in pts:
                if t > 0:
                    f.write(f"{mib} {t}\n")
            f.write("\n\n")
    plots = ", ".join(f"'{dat}' index {i} with linespoints title '{name}'" for i, name in enumerate(series))
    script = "\n".join([
        "set terminal svg size 900,600 dynamic",
        f"set output '{a.output}'",
        "set logscale xy 2",
        "set xlabel 'input (MiB)'", "set ylabel 'median wall time (s)'",
        "set title 'mr (embedded cluster, defaults) and its peers: time against input size'",
        "set key left top", "set grid",
        "plot " + plots, ""])
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"plot: gnuplot failed ({e}); data left in {dat}")
        return 1
    os.remove(dat)
    print(f"plot: wrote {a.output}")
    return 0


def check(a):
    base = json.load(open(a.baseline))["modes"]
    fresh_modes = json.load(open(a.fresh))["modes"]
    fresh = fresh_modes.get("quick") or next(iter(fresh_modes.values()))
    ref_mode = "quick" if "quick" in base else "full"
    ref = base[ref_mode]
    if ref_mode != "quick":
        print("check: no quick baseline recorded; comparing with the full run (sizes differ, expect noise)")
    print(f"baseline: {ref_mode} run of {ref['date']} (commit {ref['machine']['commit']}); "
          f"fresh: load average {fresh['loadavg'][0]} -> {fresh['loadavg'][-1]}")
    worse = []
    print(f"{'ratio':48} {'baseline':>9} {'fresh':>9} {'change':>8}")
    for key, old in ref["ratios"].items():
        new = fresh["ratios"].get(key)
        if new is None:
            print(f"{key:48} {old:9.2f} {'missing':>9}")
            continue
        change = new / old - 1 if old > 0 else 0.0
        flag = "  WORSE" if change > a.threshold else ""
        print(f"{key:48} {old:9.2f} {new:9.2f} {change:+7.0%}{flag}")
        if flag:
            worse.append(key)
    if worse:
        print(f"check: {len(worse)} ratio(s) worse by more than {a.threshold:.0%}: {', '.join(worse)}")
        return 1
    print(f"check: no ratio worse by more than {a.threshold:.0%}")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--json", required=True)
    r.add_argument("--markdown", required=True)
    r.add_argument("--mode", required=True, help="full, quick or size-<N>MiB")
    r.add_argument("--times", required=True)
    r.add_argument("--commands", required=True)
    r.add_argument("--runs", type=int, required=True)
    r.add_argument("--size-mib", type=int, required=True)
    r.add_argument("--setting", action="append", default=[])
    r.add_argument("--check", action="append", default=[])
    r.add_argument("--loadavg", action="append", default=[])
    r.add_argument("--reproduce", required=True)
    sm = sub.add_parser("summary")
    sm.add_argument("--times", required=True)
    sm.add_argument("--commands", required=True)
    pl = sub.add_parser("plot")
    pl.add_argument("--json", required=True)
    pl.add_argument("--output", required=True)
    c = sub.add_parser("check")
    c.add_argument("--baseline", required=True)
    c.add_argument("--fresh", required=True)
    c.add_argument("--threshold", type=float, default=0.2)
    a = p.parse_args()
    if a.cmd == "record":
        record(a)
        return 0
    if a.cmd == "summary":
        return summary(a)
    if a.cmd == "plot":
        return plot(a)
    return check(a)


if __name__ == "__main__":
    sys.exit(main())
