#!/usr/bin/env bash
# Reproduces the simulation results of Lin et al. ("Joint Optimization of Overlapping Phases in MapReduce"):
# Figure 7 (relative E[T] vs load, original and cube-root rebalanced sizes) and
# Figure 9 (mean slowdown by job size at loads 0.75 and 0.9) with `mr model sweep` and
# `mr model slowdown`. Builds nothing: MR_BIN is the mr binary (default build/cli/mr).
#   MR_BIN=build/cli/mr bench/sim/run.sh
# Knobs (environment): JOBS (sweep jobs, default 80000 ≈ the trace's 29 days),
# SLOW_JOBS (slowdown jobs, default 1000000), SEED (default 1).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
MR_BIN=${MR_BIN:-$root/build/cli/mr}
JOBS=${JOBS:-80000}
SLOW_JOBS=${SLOW_JOBS:-1000000}
SEED=${SEED:-1}

if [[ ! -x "$MR_BIN" ]]; then
  echo "run.sh: MR_BIN=$MR_BIN is not an executable (build mr first, or set MR_BIN)" >&2
  exit 2
fi

echo "sweep: $JOBS jobs per load, seed $SEED" >&2
"$MR_BIN" model sweep --jobs "$JOBS" --seed "$SEED" --csv > "$here/results.csv"
column -s, -t < "$here/results.csv"

for load in 0.75 0.90; do
  echo "slowdown: load $load, $SLOW_JOBS jobs" >&2
  "$MR_BIN" model slowdown --load "$load" --jobs "$SLOW_JOBS" --seed "$SEED" --buckets 24 \
    > "$here/slowdown_$load.csv"
  head -1 "$here/slowdown_$load.csv"
done

if ! command -v gnuplot > /dev/null; then
  echo "run.sh: gnuplot not found; CSVs written, plots skipped" >&2
  exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in original rebalanced; do
  awk -F, -v v="$v" '$1 == v { gsub(",", " "); print }' "$here/results.csv" > "$tmp/$v.dat"
done
for load in 0.75 0.90; do
  grep -v '^#' "$here/slowdown_$load.csv" | tail -n +2 | tr , ' ' > "$tmp/slow_$load.dat"
done

gnuplot <<GP
set terminal pngcairo size 1100,420 font ",10"
set output "$here/relative_et.png"
set multiplot layout 1,2
set xlabel "load"
set ylabel "relative E[T] (mean response / lower bound)"
set key top left
set grid
set xrange [0:0.8]
set title "(a) original sizes (Google-trace-like)"
plot "$tmp/original.dat" using 2:4 with linespoints title "k-LPS (k=100)", \
     "" using 2:5 with linespoints title "MaxSRPT", \
     "" using 2:6 with linespoints title "SplitSRPT"
set title "(b) cube-root rebalanced sizes"
plot "$tmp/rebalanced.dat" using 2:4 with linespoints title "k-LPS (k=100)", \
     "" using 2:5 with linespoints title "MaxSRPT", \
     "" using 2:6 with linespoints title "SplitSRPT"
unset multiplot

set output "$here/slowdown.png"
set multiplot layout 1,2
set logscale x
set xrange [0.01:100]
set xlabel "job size z = max(x, y)"
set ylabel "mean slowdown E[S(z)] = E[T | z] / z"
set yrange [0:*]
set title "(a) load 0.75 (log-normal sizes, Poisson arrivals)"
plot "$tmp/slow_0.75.dat" using (sqrt(\$1*\$2)):4 with linespoints title "k-LPS", \
     "" using (sqrt(\$1*\$2)):5 with linespoints title "MaxSRPT", \
     "" using (sqrt(\$1*\$2)):6 with linespoints title "SplitSRPT"
set title "(b) load 0.90"
plot "$tmp/slow_0.90.dat" using (sqrt(\$1*\$2)):4 with linespoints title "k-LPS", \
     "" using (sqrt(\$1*\$2)):5 with linespoints title "MaxSRPT", \
     "" using (sqrt(\$1*\$2)):6 with linespoints title "SplitSRPT"
unset multiplot
GP
echo "wrote $here/results.csv, $here/relative_et.png, $here/slowdown.png" >&2
