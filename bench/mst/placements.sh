#!/usr/bin/env bash
# Issue 15, item 7: the straggling-mappers experiment on a live cluster. For each seed, the
# same seeded Poisson stream of 4-map jobs runs once under each map placement (master
# --placement) on 4 workers of speeds 1, 0.75, 0.5, 0.25 with injected exponential stragglers
# (bench/mst/live_trace.sh); each run's trace is read by `mr model mst-trace`, which gives the
# measured mean sojourn time (MST) and the model's prediction from the run's own measured
# per-node rates and service-time laws. Writes OUT/results.csv and OUT/results.md (default
# OUT bench/mst/out/placements) and deletes each run's state and outputs once read.
#   bench/mst/placements.sh [JOBS [RATE [SEEDS [PLACEMENTS]]]]
#   defaults: 100 jobs, 0.8 jobs/s, seeds "1 2 3", placements "pull even dep sep mep"
# MASTER_ARGS (env) adds master options to every run; MEP_ARGS (env) to the mep runs only,
# default "--placement-d 100": these maps sleep a fixed work plus a short straggler tail, a
# deterministic share of 0.7-0.9 of their service time (`mr model mst-trace`), which the paper
# classes as CPU-bound and models with D = 100 (docs/mst.md, "Choosing D").
# About JOBS/RATE + 10 s per run. The tasks sleep their work (and the stragglers' delays), so
# the runs do not need an idle machine, but they do need one without heavy I/O.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
MR_BIN=${MR_BIN:-$root/build/cli/mr}
JOBS=${1:-100}
RATE=${2:-0.8}
SEEDS=${3:-1 2 3}
PLACEMENTS=${4:-pull even dep sep mep}
OUT=${OUT:-$here/out/placements}
mkdir -p "$OUT"
csv=$OUT/results.csv
echo "seed,placement,jobs,mst_measured,mst_dtd,mst_mm1,mst_independent,violated" >"$csv"
for seed in $SEEDS; do
  for p in $PLACEMENTS; do
    run=$OUT/seed$seed-$p
    echo "== seed $seed, placement $p" >&2
    args=${MASTER_ARGS:-}
    if [[ $p == mep ]]; then args="$args ${MEP_ARGS---placement-d 100}"; fi
    OUT=$run PLACEMENT=$p MASTER_ARGS=$args MR_BIN=$MR_BIN "$here/live_trace.sh" "$JOBS" "$RATE" "$seed" >/dev/null
    python3 - "$run/mst-trace.json" "$seed" "$p" >>"$csv" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
pred = {p["law"]: (p["mst"] if p["ok"] and p["mst"] is not None else float("nan")) for p in r["predictions"]}
bad = ";".join(a["name"] for a in r["assumptions"] if a["violated"])
print(f'{sys.argv[2]},{sys.argv[3]},{r["jobs"]},{r["sojourn"]["mean"]:.4f},{pred.get("dtd", float("nan")):.4f},'
      f'{pred.get("mm1", float("nan")):.4f},{pred.get("independent", float("nan")):.4f},{bad}')
PY
    rm -rf "$run/state" "$run/out" "$run"/w?
  done
done
python3 - "$csv" >"$OUT/results.md" <<'PY'
import csv, collections, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = collections.defaultdict(list)
for r in rows:
    by[r["placement"]].append(r)
order = [p for p in ["pull", "even", "dep", "sep", "mep"] if p in by]
seeds = sorted({r["seed"] for r in rows})
def mean(v):
    v = [x for x in v if not math.isnan(x)]
    return sum(v) / len(v) if v else float("nan")
print("| placement | " + " | ".join(f"seed {s}: measured / dtd model" for s in seeds) +
      " | mean measured | mean dtd model | model error |")
print("|---|" + "---:|" * (len(seeds) + 3))
means = {}
for p in order:
    cells = []
    for s in seeds:
        r = next((x for x in by[p] if x["seed"] == s), None)
        cells.append(f'{float(r["mst_measured"]):.3f} / {float(r["mst_dtd"]):.3f}' if r else "-")
    m = mean([float(x["mst_measured"]) for x in by[p]])
    d = mean([float(x["mst_dtd"]) for x in by[p]])
    means[p] = m
    print(f"| {p} | " + " | ".join(cells) + f" | {m:.3f} | {d:.3f} | {100 * (d / m - 1):+.1f}% |")
low = min(means, key=means.get)
print()
print(f"Lowest mean measured MST: {low} ({means[low]:.3f} s)" +
      (f"; mep {100 * (means['mep'] / means[low] - 1):+.1f}% from it." if "mep" in means else "."))
viol = collections.Counter(v for r in rows for v in r["violated"].split(";") if v)
print("Assumptions violated (runs of " + str(len(rows)) + "): " +
      ", ".join(f"{k} {n}" for k, n in viol.most_common()))
PY
cat "$OUT/results.md"
