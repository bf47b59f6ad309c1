#!/usr/bin/env bash
# Where our slotted-model results and the ASRPT paper ("Minimizing total flow time of
# MapReduce jobs") part, each measured: the tail of the flow times (its Figs. 10-13), how the
# flow time is counted (within T or drained), the paper's own FIFO and Fair against the live
# ones, the non-preemptive gap and what bounds it, the reading of "up to 10 tasks per job",
# and the virtual SRPT schedule's variant. Deterministic simulations (nothing is timed), a
# few seconds. Builds nothing: MR_BIN is a binary that understands `model slotted`.
#   MR_BIN=build/cli/mr bench/asrpt/fidelity.sh
# Knobs (environment): SEEDS (default "1 2 3 4 5"; seed 1 for the per-setting tables),
# MACHINES (100), SLOTS (500). Writes bench/asrpt/fidelity.md and fidelity.csv (every run's
# rows); the workloads are temporary.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
MR_BIN=${MR_BIN:-$root/build/cli/mr}
SEEDS=${SEEDS:-1 2 3 4 5}
MACHINES=${MACHINES:-100}
SLOTS=${SLOTS:-500}
WORKLOADS=(exp5-exp40 exp30-exp15 u1-9-u10-70 u10-50-u10-20)
POLICIES=fifo,paper-fifo,fair,paper-fair,lrpt,asrpt

if [[ ! -x "$MR_BIN" ]]; then
  echo "fidelity.sh: MR_BIN=$MR_BIN is not an executable (build mr first, or set MR_BIN)" >&2
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run TAG WORKLOAD_FILE MODE [extra flags...]: appends TAG,mode,<report row> to fidelity.csv
# and the per-job flow times to $tmp/TAG_MODE.flows.
csv="$tmp/fidelity.csv"
echo "tag,mode,schedule,total_flow_time,srpt_bound,ratio,last_slot,flow_within_T,ratio_within_T,mean,p50,p90,p99,max" > "$csv"
run() {
  local tag=$1 file=$2 mode=$3
  shift 3
  local flag=()
  [[ $mode == preemptive ]] && flag=(--preemptive)
  "$MR_BIN" model slotted --workload "$file" --machines "$MACHINES" "${flag[@]}" --per-job "$tmp/${tag//\//_}_$mode.flows" "$@" |
    awk -F, -v t="$tag" -v m="$mode" '!/^#/ && $1 != "schedule" { print t "," m "," $0 }' >> "$csv"
}
gen() {  # gen FILE WORKLOAD SEED [flags...]
  local file=$1 w=$2 seed=$3
  shift 3
  "$MR_BIN" model slotted-gen --workload "$w" --slots "$SLOTS" --seed "$seed" --out "$file" "$@" > /dev/null
}

for seed in $SEEDS; do
  for w in "${WORKLOADS[@]}"; do
    gen "$tmp/$w-$seed.json" "$w" "$seed"
    gen "$tmp/$w-$seed-most.json" "$w" "$seed" --reduce-tasks most
    for mode in non-preemptive preemptive; do
      run "$w/s$seed" "$tmp/$w-$seed.json" "$mode" --policy "$POLICIES"
      run "$w/s$seed/present" "$tmp/$w-$seed.json" "$mode" --policy asrpt --asrpt-virtual present
    done
    run "$w/s$seed/most" "$tmp/$w-$seed-most.json" non-preemptive --policy "$POLICIES"
  done
done
first=$(echo "$SEEDS" | awk '{ print $1 }')
for w in u1-9-u10-70 exp5-exp40; do
  for rate in 1 1.5 1.8; do
    "$MR_BIN" model slotted-gen --workload "$w" --slots "$SLOTS" --seed "$first" --rate "$rate" \
      --out "$tmp/$w-rate$rate.json" > /dev/null
    run "$w/rate$rate" "$tmp/$w-rate$rate.json" preemptive --policy fifo,paper-fair,asrpt
  done
done
cp "$csv" "$here/fidelity.csv"

python3 - "$here/fidelity.csv" "$tmp" "$first" "$SEEDS" > "$here/fidelity.md" <<'PY'
import csv, sys, os
rows = list(csv.DictReader(open(sys.argv[1])))
tmp, first, seeds = sys.argv[2], sys.argv[3], sys.argv[4].split()
W = ["exp5-exp40", "exp30-exp15", "u1-9-u10-70", "u10-50-u10-20"]
M = ["non-preemptive", "preemptive"]
get = {(r["tag"], r["mode"], r["schedule"]): r for r in rows}
def val(tag, mode, sched, col):
    r = get.get((tag, mode, sched))
    return None if r is None else float(r[col])
def flows(tag, mode, sched):
    path = os.path.join(tmp, tag.replace("/", "_") + "_" + mode + ".flows")
    with open(path) as f:
        rd = csv.DictReader(f)
        return [int(x[sched]) for x in rd]
pct = lambda a, b: 100.0 * (a - b) / b
from decimal import Decimal, ROUND_HALF_UP
def r3(tag, mode, sched, col="ratio"):  # as run.sh's awk prints the 4-decimal CSV value
    return str(Decimal(get[(tag, mode, sched)][col]).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP))

print(f"# ASRPT paper vs the slotted model: where they part (bench/asrpt/fidelity.sh)\n")
print(f"N = 100 machines, lambda = 2 jobs/slot, T = 500 slots unless said; seeds {' '.join(seeds)}; "
      "deterministic simulations.\n")

print(f"## 1. The flow-time tail (the paper's Figs. 10-13), seed {first}\n")
print("Flow times in slots: p50 / p90 / p99 / max, and the fraction of jobs done within 5, 10, 20, 50 "
      "and 100 slots (the paper plots the CDF up to 100).\n")
S = ["srpt-bound", "dsrpt", "fifo", "fair", "paper-fair", "lrpt", "asrpt"]
print("| workload | reduce | " + " | ".join(S) + " |")
print("|---|---|" + "---:|" * len(S))
for w in W:
    for m in M:
        tag = f"{w}/s{first}"
        cells = []
        for s in S:
            r = get.get((tag, m, s))
            cells.append("-" if r is None else f"{r['p50']} / {r['p90']} / {r['p99']} / {r['max']}")
        print(f"| {w} | {m} | " + " | ".join(cells) + " |")
print()
print("| workload | reduce | schedule | <= 5 | <= 10 | <= 20 | <= 50 | <= 100 |")
print("|---|---|---|---:|---:|---:|---:|---:|")
for w in W:
    for m in M:
        for s in ["fifo", "fair", "paper-fair", "lrpt", "asrpt"]:
            f = flows(f"{w}/s{first}", m, s)
            fr = [sum(x <= c for x in f) / len(f) for c in (5, 10, 20, 50, 100)]
            print(f"| {w} | {m} | {s} | " + " | ".join(f"{x:.3f}" for x in fr) + " |")
print()

print(f"## 2. The tail against the load (preemptive, seed {first}): p99 / max, and asrpt's ratio\n")
print("| workload | lambda | load | srpt-bound | asrpt | fifo | paper-fair | asrpt ratio |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for w in ["u1-9-u10-70", "exp5-exp40"]:
    for rate in ["1", "1.5", "1.8", "2"]:
        tag = f"{w}/rate{rate}" if rate != "2" else f"{w}/s{first}"
        mean = 45.0  # mean units per job: 5 + 40 and 5 + 40
        cells = []
        for s in ["srpt-bound", "asrpt", "fifo", "paper-fair"]:
            r = get[(tag, "preemptive", s)]
            cells.append(f"{r['p99']} / {r['max']}")
        print(f"| {w} | {rate} | {float(rate) * mean / 100:.2f} | " + " | ".join(cells) + f" | {r3(tag, 'preemptive', 'asrpt')} |")
print("\n(load: lambda x 45 mean units per job / 100 machines, at the distributions' means)\n")

print(f"## 3. Counting: drained vs within T (seed {first}), efficiency ratios\n")
print("| workload | reduce | asrpt drained | asrpt within T | fifo drained | fifo within T | paper-fair drained | paper-fair within T |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
for w in W:
    for m in M:
        tag = f"{w}/s{first}"
        c = []
        for s in ["asrpt", "fifo", "paper-fair"]:
            c += [r3(tag, m, s), r3(tag, m, s, "ratio_within_T")]
        print(f"| {w} | {m} | " + " | ".join(c) + " |")
print()

print(f"## 4. The paper's baselines (seed {first}): efficiency ratios\n")
print("| workload | reduce | fifo | paper-fifo | fair | paper-fair | lrpt | asrpt | asrpt vs best baseline |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for w in W:
    for m in M:
        tag = f"{w}/s{first}"
        r = {s: val(tag, m, s, "ratio") for s in ["fifo", "paper-fifo", "fair", "paper-fair", "lrpt", "asrpt"]}
        best = min(r["fifo"], r["fair"], r["paper-fair"])
        print(f"| {w} | {m} | " + " | ".join(r3(tag, m, s) for s in r) + f" | {pct(r['asrpt'], best):+.1f}% |")
print()

print("## 5. The non-preemptive gap and the floor no schedule beats\n")
print("np-floor: each job's ceil(M_i/N) + its longest reduce task. 'above floor' compares what "
      "the policies add to it, the only part an order can change.\n")
print(f"Seed {first} per row; the ranges below cover every seed.\n")
print("| workload | K_i reading | seed | np-floor | asrpt | best of fifo, fair, paper-fair | asrpt vs best (total) | asrpt vs best (above floor) | floor / asrpt total |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
gaps = {"uniform": [], "most": []}
for w in W:
    for reading, suffix in [("uniform", ""), ("most", "/most")]:
        for seed in seeds:
            tag = f"{w}/s{seed}{suffix}"
            fl = val(tag, "non-preemptive", "np-floor", "total_flow_time")
            a = val(tag, "non-preemptive", "asrpt", "total_flow_time")
            bs = min(["fifo", "fair", "paper-fair"], key=lambda s: val(tag, "non-preemptive", s, "total_flow_time"))
            b = val(tag, "non-preemptive", bs, "total_flow_time")
            gaps[reading].append(pct(a, b))
            if seed == first:
                print(f"| {w} | {reading} | {seed} | {r3(tag, 'non-preemptive', 'np-floor')} | "
                      f"{r3(tag, 'non-preemptive', 'asrpt')} | "
                      f"{r3(tag, 'non-preemptive', bs)} ({bs}) | {pct(a, b):+.1f}% | "
                      f"{pct(a - fl, b - fl):+.1f}% | {fl / a:.3f} |")
print()
for reading in gaps:
    g = gaps[reading]
    print(f"- K_i {reading}: asrpt vs the best baseline {min(g):+.1f}% to {max(g):+.1f}% over {len(g)} runs")
print()

print("## 6. The virtual SRPT schedule: over the arrivals (the paper's, default) vs present jobs only (variant)\n")
print("| workload | reduce | " + " | ".join(f"seed {s}" for s in seeds) + " |")
print("|---|---|" + "---:|" * len(seeds))
for w in W:
    for m in M:
        c = []
        for seed in seeds:
            a = val(f"{w}/s{seed}", m, "asrpt", "total_flow_time")
            p = val(f"{w}/s{seed}/present", m, "asrpt", "total_flow_time")
            c.append(f"{pct(a, p):+.2f}%")
        print(f"| {w} | {m} | " + " | ".join(c) + " |")
print("\n(total flow time of asrpt, the paper's virtual schedule, relative to the variant `asrpt-virtual present`)")
PY
cat "$here/fidelity.md"
echo "wrote $here/fidelity.md, fidelity.csv" >&2
