#!/usr/bin/env bash
# Reproduces the simulation experiments of "FLEX: A Slot Allocation Scheduling Optimizer for
# MapReduce Workloads" (section 4.1, Fig. 5) with model/flex: 10 jobs, 100 slots, 100
# instances per point, every scheme's metric divided by the optimum over all priority orders.
#   - the base case (average response time, 80% small jobs, 75% slack) at several seeds;
#   - Fig. 5(a): slack 5%..95%; Fig. 5(b): 0..9 small jobs of 10; Fig. 5(c): the metric menu
#     (FLEX as the paper describes it, and with one round of adjacent swaps).
# Writes bench/flex/{base,slack,small,metrics}.csv, results.md and slack.png, small.png,
# metrics.png (gnuplot). Deterministic: no timing is measured.
#   bench/flex/run.sh                      (after: cmake --build build --target mr)
# Knobs (environment): MR_BIN (the mr binary, build/cli/mr; it runs `mr model flex`), INSTANCES (100), SEEDS for the base case
# ("1 2 3 4 5"), SEED for the sweeps (1), SWEEP_SWAPS (1: the swap variant in the menu),
# PLOT_ONLY=1 (rebuild results.md and the plots from the CSVs already there).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
MR_BIN=${MR_BIN:-$root/build/cli/mr}
INSTANCES=${INSTANCES:-100}
SEEDS=${SEEDS:-1 2 3 4 5}
SEED=${SEED:-1}
SWEEP_SWAPS=${SWEEP_SWAPS:-1}
METRICS=(response-time weighted-response-time stretch makespan max-stretch tardy-jobs
         weighted-tardy-jobs tardiness max-tardiness lateness max-lateness sla)

if [[ ${PLOT_ONLY:-0} != 1 && ! -x "$MR_BIN" ]]; then
  echo "run.sh: MR_BIN=$MR_BIN is not an executable (cmake --build build --target mr)" >&2
  exit 2
fi

# One point: prints "fifo,avg,worst fair,avg,worst flex,avg,worst counted skipped".
point() {
  "$MR_BIN" model flex --instances "$INSTANCES" --csv "$@" | awk -F, '
    /^(fifo|fair|flex),/ { r[$1] = sprintf("%.4f,%.4f", $2, $3) }
    /^# realised/ { match($0, /counted [0-9]+/); c = substr($0, RSTART + 8, RLENGTH - 8)
                    match($0, /\) [0-9]+;/); s = substr($0, RSTART + 2, RLENGTH - 3) }
    END { print r["fifo"] "," r["fair"] "," r["flex"] "," c "," s }'
}

if [[ ${PLOT_ONLY:-0} != 1 ]]; then
  header="fifo_avg,fifo_worst,fair_avg,fair_worst,flex_avg,flex_worst,counted,skipped"
  echo "seed,$header" > "$here/base.csv"
  for s in $SEEDS; do
    echo "base case, seed $s" >&2
    echo "$s,$(point --seed "$s")" >> "$here/base.csv"
  done
  echo "slack,$header" > "$here/slack.csv"
  for x in 0.05 0.15 0.25 0.35 0.45 0.55 0.65 0.75 0.85 0.95; do
    echo "slack $x" >&2
    echo "$x,$(point --seed "$SEED" --slack "$x")" >> "$here/slack.csv"
  done
  echo "small_jobs,$header" > "$here/small.csv"
  for n in 0 1 2 3 4 5 6 7 8 9; do
    echo "small jobs $n of 10" >&2
    echo "$n,$(point --seed "$SEED" --small "0.$n")" >> "$here/small.csv"
  done
  echo "metric,$header,swaps_avg,swaps_worst" > "$here/metrics.csv"
  for m in "${METRICS[@]}"; do
    echo "metric $m" >&2
    plain=$(point --seed "$SEED" --metric "$m")
    swaps=$(point --seed "$SEED" --metric "$m" --swap-rounds "$SWEEP_SWAPS" | cut -d, -f5,6)
    echo "$m,$plain,$swaps" >> "$here/metrics.csv"
  done
fi

# Markdown: one table per experiment; ratios are scheme / optimum (avg / worst).
{
  echo "Base case: average response time, 10 jobs, 100 slots, 80% small jobs, 75% slack,"
  echo "$INSTANCES instances per seed. Cells: mean / worst ratio to the optimum."
  echo
  echo "| seed | FIFO | FAIR | FLEX |"
  echo "|---|---:|---:|---:|"
  awk -F, 'NR > 1 { printf "| %s | %.2f / %.2f | %.2f / %.2f | %.4f / %.4f |\n", $1, $2, $3, $4, $5, $6, $7 }' "$here/base.csv"
  echo "| paper | 2.07 / 3.24 | 1.54 / 1.61 | within 0.1% (worst) |"
  for sweep in slack small; do
    echo
    if [[ $sweep == slack ]]; then
      echo "Fig. 5(a): slack parameter (80% small jobs), seed $SEED."
      echo; echo "| slack | FIFO | FAIR | FLEX |"
    else
      echo "Fig. 5(b): small jobs of 10 (75% slack), seed $SEED."
      echo; echo "| small jobs | FIFO | FAIR | FLEX |"
    fi
    echo "|---|---:|---:|---:|"
    awk -F, 'NR > 1 { printf "| %s | %.2f / %.2f | %.2f / %.2f | %.4f / %.4f |\n", $1, $2, $3, $4, $5, $6, $7 }' "$here/$sweep.csv"
  done
  echo
  echo "Fig. 5(c): the metric menu (80% small jobs, 75% slack), seed $SEED; FLEX as the paper"
  echo "describes it, and with $SWEEP_SWAPS round(s) of adjacent swaps. Instances whose optimum is"
  echo "not positive are skipped (the paper does the same)."
  echo
  echo "| metric | counted | FIFO | FAIR | FLEX | FLEX + swaps |"
  echo "|---|---:|---:|---:|---:|---:|"
  awk -F, 'NR > 1 { if ($8 == 0) { printf "| %s | 0 | - | - | - | - |\n", $1; next }
    printf "| %s | %s | %.2f / %.2f | %.2f / %.2f | %.3f / %.3f | %.3f / %.3f |\n", $1, $8, $2, $3, $4, $5, $6, $7, $10, $11 }' "$here/metrics.csv"
} > "$here/results.md"
cat "$here/results.md"

if ! command -v gnuplot > /dev/null; then
  echo "run.sh: gnuplot not found; CSVs and results.md written, plots skipped" >&2
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in slack small; do tail -n +2 "$here/$f.csv" | tr , ' ' > "$tmp/$f.dat"; done
tail -n +2 "$here/metrics.csv" | awk -F, '$8 > 0 { print n++, $1, $2, $3, $4, $5, $6, $7, $10, $11 }' > "$tmp/metrics.dat"
for f in slack small; do
  if [[ $f == slack ]]; then xl="slack parameter"; t="(a) average response time vs slack"; else
    xl="small jobs (of 10)"; t="(b) average response time vs small jobs"; fi
  gnuplot <<GP
set terminal pngcairo size 800,480 font ",10"
set output "$here/$f.png"
set title "$t"
set xlabel "$xl"
set ylabel "ratio to the optimum"
set key top left
set grid
set yrange [0.9:*]
plot "$tmp/$f.dat" using 1:2 with linespoints lc 1 pt 7 title "FIFO avg", \
     "" using 1:3 with linespoints lc 1 dt 2 pt 6 title "FIFO worst", \
     "" using 1:4 with linespoints lc 2 pt 7 title "FAIR avg", \
     "" using 1:5 with linespoints lc 2 dt 2 pt 6 title "FAIR worst", \
     "" using 1:6 with linespoints lc 3 pt 7 title "FLEX avg", \
     "" using 1:7 with linespoints lc 3 dt 2 pt 6 title "FLEX worst"
GP
done
gnuplot <<GP
set terminal pngcairo size 1100,480 font ",10"
set output "$here/metrics.png"
set title "(c) the metric menu: mean (bars) and worst (points) ratio to the optimum"
set ylabel "ratio to the optimum"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.6
set logscale y
set yrange [0.9:*]
set xtics rotate by -30
set grid ytics
set key top left
plot "$tmp/metrics.dat" using 3:xtic(2) title "FIFO avg" lc 1, \
     "" using 5 title "FAIR avg" lc 2, \
     "" using 7 title "FLEX avg" lc 3, \
     "" using 9 title "FLEX+swaps avg" lc 4, \
     "" using (\$1-0.3):4 with points pt 6 lc 1 title "FIFO worst", \
     "" using (\$1-0.1):6 with points pt 6 lc 2 title "FAIR worst", \
     "" using (\$1+0.1):8 with points pt 6 lc 3 title "FLEX worst", \
     "" using (\$1+0.3):10 with points pt 6 lc 4 title "FLEX+swaps worst"
GP
echo "run.sh: wrote $here/{base,slack,small,metrics}.csv, results.md, slack.png, small.png, metrics.png" >&2
