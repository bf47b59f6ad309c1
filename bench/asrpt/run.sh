#!/usr/bin/env bash
# Reproduces the simulations of "Minimizing total flow time of MapReduce jobs" (the ASRPT
# paper, section VII) in mrlab's slotted model, with the LIVE policy objects: N = 100
# machines, Poisson arrivals of 2 jobs per slot for T = 500 slots, the paper's four
# workloads, reduce work non-preemptive and preemptive. For every setting: each policy's
# efficiency ratio (total flow time / SRPT lower bound) as a Markdown table, the ratio as
# the horizon T grows (convergence.png) and the CDFs of job flow times up to 100 slots
# (flow_cdf.png). Builds nothing: MR_BIN is a binary that understands `model slotted`.
#   MR_BIN=build/cli/mr bench/asrpt/run.sh
# Knobs (environment): POLICIES (default fifo,paper-fifo,fair,paper-fair,lrpt,asrpt: the live
# policies and the paper's own FIFO and Fair, model/slotted/slotted_baselines.h), SEED (1),
# MACHINES (100), RATE (2), SLOTS (500), STEP (the convergence plot's T step, 50).
# bench/asrpt/fidelity.sh adds the tails, the variants and the readings (fidelity.md).
# Writes bench/asrpt/{results.csv,convergence.csv,results.md,convergence.png,flow_cdf.png};
# the workloads and per-job flow times are temporary.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
MR_BIN=${MR_BIN:-$root/build/cli/mr}
POLICIES=${POLICIES:-fifo,paper-fifo,fair,paper-fair,lrpt,asrpt}
SEED=${SEED:-1}
MACHINES=${MACHINES:-100}
RATE=${RATE:-2}
SLOTS=${SLOTS:-500}
STEP=${STEP:-50}
WORKLOADS=(exp5-exp40 exp30-exp15 u1-9-u10-70 u10-50-u10-20)
MODES=(non-preemptive preemptive)

if [[ ! -x "$MR_BIN" ]]; then
  echo "run.sh: MR_BIN=$MR_BIN is not an executable (build mr first, or set MR_BIN)" >&2
  exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "workload,mode,slots,schedule,total_flow_time,srpt_bound,ratio,last_slot,flow_within_T,ratio_within_T,mean,p50,p90,p99,max" > "$tmp/convergence.csv"
for w in "${WORKLOADS[@]}"; do
  "$MR_BIN" model slotted-gen --workload "$w" --rate "$RATE" --slots "$SLOTS" --seed "$SEED" \
    --out "$tmp/$w.json" >&2
  for mode in "${MODES[@]}"; do
    flag=()
    [[ $mode == preemptive ]] && flag=(--preemptive)
    echo "$w $mode: T = $STEP..$SLOTS" >&2
    for ((t = STEP; t <= SLOTS; t += STEP)); do
      per_job=()
      ((t == SLOTS)) && per_job=(--per-job "$tmp/flows_${w}_$mode.csv")
      "$MR_BIN" model slotted --workload "$tmp/$w.json" --policy "$POLICIES" --machines "$MACHINES" \
        --until "$t" "${flag[@]}" "${per_job[@]}" |
        awk -F, -v w="$w" -v m="$mode" -v t="$t" '!/^#/ && $1 != "schedule" { print w "," m "," t "," $0 }' \
          >> "$tmp/convergence.csv"
    done
  done
done
cp "$tmp/convergence.csv" "$here/convergence.csv"
{ head -1 "$tmp/convergence.csv"; awk -F, -v s="$SLOTS" '$3 == s' "$tmp/convergence.csv"; } > "$here/results.csv"

# The table: one row per setting, the ratio of every schedule; which policy is lowest.
awk -F, -v policies="$POLICIES" '
  NR == 1 { next }
  { key = $1 "," $2; if (!(key in seen)) { seen[key] = 1; order[++n] = key }
    ratio[key, $4] = $7; bound[key] = $6 }
  END {
    np = split(policies, p, ",")
    head = "| workload (map / reduce) | reduce | SRPT bound (total flow time) |"
    rule = "|---|---|---:|"
    for (i = 1; i <= np; i++) { head = head " " p[i] " |"; rule = rule "---:|" }
    print head " dsrpt (preemptive) / np-floor | lowest |"; print rule "---:|---|"
    for (k = 1; k <= n; k++) {
      split(order[k], f, ",")
      line = "| " f[1] " | " f[2] " | " bound[order[k]] " |"; best = ""
      for (i = 1; i <= np; i++) {
        r = ratio[order[k], p[i]]; line = line " " sprintf("%.3f", r) " |"
        if (best == "" || r + 0 < min) { best = p[i]; min = r + 0 } else if (r + 0 == min) best = best "=" p[i]
      }
      d = ((order[k], "dsrpt") in ratio) ? sprintf("%.3f", ratio[order[k], "dsrpt"]) : \
          ((order[k], "np-floor") in ratio) ? sprintf("%.3f", ratio[order[k], "np-floor"]) : "-"
      print line " " d " | " best " |"
    }
  }' "$here/results.csv" > "$here/results.md"
cat "$here/results.md"

# Acceptance (issue 14): asrpt lowest in every setting, at most 3 when preemptive.
if [[ ",$POLICIES," == *,asrpt,* ]]; then
  awk -F, -v policies="$POLICIES" '
    NR > 1 { key = $1 " " $2; r[key, $4] = $7 + 0; mode[key] = $2 }
    END {
      np = split(policies, p, ","); ok = 1
      for (k in mode) {
        a = r[k, "asrpt"]
        for (i = 1; i <= np; i++)
          if (p[i] != "asrpt" && r[k, p[i]] < a) { print "not lowest: " k ": " p[i] " " r[k, p[i]] " < asrpt " a; ok = 0 }
        if (mode[k] == "preemptive" && a > 3) { print "above 3: " k ": asrpt " a; ok = 0 }
      }
      print ok ? "acceptance: asrpt lowest in every setting and <= 3 when preemptive" : "acceptance: NOT met"
    }' "$here/results.csv"
fi

if ! command -v gnuplot > /dev/null; then
  echo "run.sh: gnuplot not found; CSVs and table written, plots skipped" >&2
  exit 0
fi

IFS=, read -r -a plist <<< "$POLICIES"
cdfs=("${plist[@]}" srpt-bound)
# convergence: T then one ratio column per schedule (policies, then dsrpt when preemptive).
for w in "${WORKLOADS[@]}"; do
  for mode in "${MODES[@]}"; do
    awk -F, -v w="$w" -v m="$mode" -v policies="$POLICIES" '
      $1 == w && $2 == m { r[$3, $4] = $7; ts[$3] = 1 }
      END { np = split(policies, p, ","); p[++np] = "dsrpt"
            for (t in ts) { line = t; for (i = 1; i <= np; i++) line = line " " ((t, p[i]) in r ? r[t, p[i]] : "NaN"); print line } }' \
      "$tmp/convergence.csv" | sort -n > "$tmp/conv_${w}_$mode.dat"
    # flow-time CDF per schedule: sorted flow times against i / n.
    for ((i = 0; i < ${#cdfs[@]}; i++)); do
      col=$(head -1 "$tmp/flows_${w}_$mode.csv" | tr , '\n' | grep -nx "${cdfs[$i]}" | cut -d: -f1)
      tail -n +2 "$tmp/flows_${w}_$mode.csv" | cut -d, -f"$col" | sort -n |
        awk '{ v[NR] = $1 } END { for (i = 1; i <= NR; i++) print v[i], i / NR }' > "$tmp/cdf_${w}_${mode}_$i.dat"
    done
  done
done

plots_conv="" plots_cdf=""
for mode in "${MODES[@]}"; do
  for w in "${WORKLOADS[@]}"; do
    c="set title \"$w, $mode\"; plot"
    d="set title \"$w, $mode\"; plot"
    for ((i = 0; i < ${#plist[@]}; i++)); do
      style=""
      [[ ${plist[$i]} == asrpt ]] && style=" lw 2 lc rgb \"red\""
      c="$c \"$tmp/conv_${w}_$mode.dat\" using 1:$((i + 2)) with linespoints$style title \"${plist[$i]}\","
      d="$d \"$tmp/cdf_${w}_${mode}_$i.dat\" using 1:2 with lines$style title \"${plist[$i]}\","
    done
    d="$d \"$tmp/cdf_${w}_${mode}_${#plist[@]}.dat\" using 1:2 with lines dt 2 lc black title \"SRPT bound\","
    [[ $mode == preemptive ]] && c="$c \"$tmp/conv_${w}_$mode.dat\" using 1:$((${#plist[@]} + 2)) with linespoints dt 2 lc black title \"dsrpt\","
    plots_conv="$plots_conv${c%,}"$'\n'
    plots_cdf="$plots_cdf${d%,}"$'\n'
  done
done

gnuplot <<GP
set terminal pngcairo size 1800,800 font ",9"
set output "$here/convergence.png"
set multiplot layout 2,4 title "Efficiency ratio (total flow time / SRPT lower bound) vs horizon T: N=$MACHINES, lambda=$RATE, seed $SEED"
set xlabel "T (slots of arrivals)"
set ylabel "ratio"
set yrange [1:*]
set key top left
set grid
$plots_conv
unset multiplot
set output "$here/flow_cdf.png"
set multiplot layout 2,4 title "CDF of job flow times (slots), T=$SLOTS: N=$MACHINES, lambda=$RATE, seed $SEED"
set xlabel "flow time (slots)"
set ylabel "fraction of jobs"
set xrange [0:100]
set yrange [0:1]
set key bottom right
$plots_cdf
unset multiplot
GP
echo "wrote $here/results.csv, convergence.csv, results.md, convergence.png, flow_cdf.png" >&2
