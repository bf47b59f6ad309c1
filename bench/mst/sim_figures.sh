#!/usr/bin/env bash
# The straggling-mappers paper's simulated figures (5, 7, 9, 12: per node type, mean
# utilisation, queue length, response time and throughput of heterogeneous mapper nodes under
# the fair, pure-deterministic, pure-stochastic and M-EP placements, against the job arrival
# rate), with the task-level simulator (`mr model tasksim --placement ... --per-worker`)
# standing in for the paper's CSIM queueing model. Beside each simulated value, the M/M/1 node's
# (rho, rho/(1 - rho), 1/(mu - lambda_i), lambda_i) at the split the placement dispatched.
#   bench/mst/sim_figures.sh [JOBS [RATES]]     defaults: 4000 jobs, rates "0.1 0.2 0.3 0.4 0.5 0.6"
# The cluster: 10 low-performance workers (speed 2/3: service time 1.5, as the paper's Fig. 5)
# and 10 high-performance ones (speed 1), one map slot each; every job is 20 maps of mean work
# 1 s with exponential service (--map-time exp:0,1), Poisson job arrivals (seeded), a negligible
# shuffle (y = 0.001: 20 KB per job).
# Under `even` each job puts exactly one map on every worker: the paper's fork-join picture.
# `sep` and `mep` are the live placements: clamped at 0 (docs/mst.md) with mu and lambda
# measured online. Deterministic (seeded); nothing is timed. Writes OUT/sim_figures.{csv,md}
# (default OUT bench/mst/out).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
MR_BIN=${MR_BIN:-$root/build/cli/mr}
if [[ ! -x $MR_BIN ]]; then
  echo "sim_figures.sh: MR_BIN=$MR_BIN is not an executable (build mr first, or set MR_BIN)" >&2
  exit 2
fi
JOBS=${1:-4000}
RATES=${2:-0.1 0.2 0.3 0.4 0.5 0.6}
out=${OUT:-$here/out}
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/mst-sim.XXXXXX")
trap 'rm -rf "$work"' EXIT

speeds=$(python3 -c 'print(",".join(["0.666666666667"] * 10 + ["1"] * 10))')
# MapCapacity = 10 x 2/3 + 10 = 50/3 slot-s/s; x = 20 maps x 1 s / (50/3) = 1.2 per job.
csv=$out/sim_figures.csv
echo "rate,placement,type,utilisation,util_mm1,queue,queue_mm1,response,response_mm1,throughput,lambda_i,mean_sojourn" >"$csv"
for rate in $RATES; do
  python3 - "$JOBS" "$rate" >"$work/w.csv" <<'PY'
import random, sys
n, rate = int(sys.argv[1]), float(sys.argv[2])
rng = random.Random(1)
t = 0.0
print("arrival,x,y")
for _ in range(n):
    t += rng.expovariate(rate)
    print(f"{t:.6f},1.2,0.001")
PY
  for p in even dep sep mep; do
    "$MR_BIN" model tasksim --workload "$work/w.csv" --policy fifo --workers 20 --map-slots 1 --reduce-slots 1 \
      --shuffle-bandwidth 1MB/s --speeds "$speeds" --maps-per-job 20 --map-time exp:0,1 --seed 1 \
      --placement "$p" --per-worker >"$work/run.txt"
    python3 - "$work/run.txt" "$rate" "$p" >>"$csv" <<'PY'
import re, sys
rows, workers, sojourn = [], [], None
for line in open(sys.argv[1]):
    if line.startswith("# worker="):
        workers.append(dict(kv.split("=") for kv in line[2:].split()))
    elif line.startswith("# policy="):
        sojourn = float(re.search(r"mean_sojourn=(\S+)", line).group(1))
    elif line[0].isdigit():
        rows.append(line.split(","))
span = max(float(r[4]) for r in rows)  # the last job's completion: the run drains
for kind, speed in (("LP", "0.666667"), ("HP", "1")):
    ws = [w for w in workers if w["speed"] == speed]
    n = len(ws)
    util = sum(float(w["map_busy"]) for w in ws) / span / n
    thr = sum(int(w["maps"]) for w in ws) / span / n
    queue = sum(float(w["map_response"]) for w in ws) / span / n
    maps = sum(int(w["maps"]) for w in ws)
    resp = sum(float(w["map_response"]) for w in ws) / maps if maps else float("nan")
    mu = float(speed)
    lam = thr  # the split the placement dispatched, per node
    rho = lam / mu
    f = lambda v: f"{v:.4f}"
    mm1 = (rho, rho / (1 - rho), 1 / (mu - lam)) if rho < 1 else (float("nan"),) * 3
    print(",".join([sys.argv[2], sys.argv[3], kind, f(util), f(mm1[0]), f(queue), f(mm1[1]), f(resp), f(mm1[2]),
                    f(thr), f(lam), f(sojourn)]))
PY
  done
done
python3 - "$csv" >"$out/sim_figures.md" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
names = {"even": "fair (Fig. 5)", "dep": "pure-deterministic (Fig. 7)", "sep": "pure-stochastic (Fig. 9)",
         "mep": "M-EP, D = 0 (Fig. 12)"}
for p in ["even", "dep", "sep", "mep"]:
    print(f"### {names[p]}: per node, simulated (M/M/1 at the dispatched split)\n")
    print("| job rate | type | utilisation | queue length | response time | throughput | mean sojourn |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for r in rows:
        if r["placement"] != p:
            continue
        print(f'| {r["rate"]} | {r["type"]} | {r["utilisation"]} ({r["util_mm1"]}) | {r["queue"]} ({r["queue_mm1"]}) | '
              f'{r["response"]} ({r["response_mm1"]}) | {r["throughput"]} | {r["mean_sojourn"]} |')
    print()
PY
cat "$out/sim_figures.md"
