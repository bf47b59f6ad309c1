#!/usr/bin/env bash
# Reproduces the simulation study of "Orchestrating an Ensemble of MapReduce Jobs for
# Minimizing Their Makespan" (section 4.2, Figures 10-13) with `mr batch sweep`: for each of
# the paper's batches, the makespan of Johnson's order and of reverse Johnson's in the
# two-stage abstraction (Min, Max) and simulated task by task (MinSim, MaxSim), and of
# BalancedPools' two pools (simulated), against the cluster size (nodes of one map and one
# reduce slot, as the paper). Deterministic: nothing is timed.
#   bench/johnson/run.sh                       (after: cmake --build build --target mr)
# Writes bench/johnson/<set>.csv, results.md and <set>.png (gnuplot, when installed).
# Knobs (environment): MR (the mr binary), NODES (cluster sizes, "10:100:10"), SEED (1),
# SETS (the batches, "workload:jobs" each; default the paper's ten), PLOT_ONLY=1 (rebuild
# results.md and the plots from the CSVs already there), SLOW_START (1: mrlab's reduces after
# their maps; 0.05: Hadoop's reducers holding a slot from 5% of the maps), POOLS_BY (maps: the
# paper's ranking; work: the variant), POOL_SEARCH (crossing: ours; paper: the pseudocode's
# loop taken literally), OUT (where the outputs go: absolute, or relative to
# bench/johnson; default bench/johnson itself). Every row also gives the lower bound no schedule can beat.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
MR=${MR:-$root/build/cli/mr}
NODES=${NODES:-10:100:10}
SEED=${SEED:-1}
SLOW_START=${SLOW_START:-1}
POOLS_BY=${POOLS_BY:-maps}
POOL_SEARCH=${POOL_SEARCH:-crossing}
out=${OUT:-$here}
[[ $out == /* ]] || out=$here/$out
mkdir -p "$out"
SETS=${SETS:-synthetic1-unimodal:100 synthetic1-bimodal:100 synthetic1-bimodal:20 synthetic1-bimodal:10
              synthetic2:100 synthetic2:20 synthetic2:10 yahoo-unimodal:100 yahoo-bimodal:100 facebook:100}

# What the paper reports for each batch (its text; the figures' curves are not tabulated).
paper() {
  case $1 in
    synthetic1-unimodal:100) echo "Fig. 10(a): MinSim up to 25% below MaxSim; BalancedPools close to Johnson" ;;
    synthetic1-bimodal:100) echo "Fig. 10(b): BalancedPools up to 38% below MinSim" ;;
    synthetic1-bimodal:20|synthetic1-bimodal:10) echo "Fig. 11: BalancedPools 25-30% below MinSim at many sizes" ;;
    synthetic2:100) echo "Fig. 12(a): MinSim up to 60% above BalancedPools" ;;
    synthetic2:20|synthetic2:10) echo "Fig. 12(b-c): BalancedPools 25-40% below MinSim" ;;
    yahoo-unimodal:100) echo "Fig. 13(a): MinSim up to 12% below MaxSim; BalancedPools 10-30% below MinSim" ;;
    yahoo-bimodal:100) echo "Fig. 13(b): BalancedPools up to 38% below MinSim" ;;
    facebook:100) echo "Fig. 13(c): MinSim 2% below MaxSim; BalancedPools 14% (small) to 33% (large) below MinSim" ;;
    *) echo "-" ;;
  esac
}

name() { echo "${1%%:*}-${1##*:}"; }

if [[ ${PLOT_ONLY:-0} != 1 ]]; then
  if [[ ! -x "$MR" ]]; then
    echo "run.sh: MR=$MR is not an executable (cmake --build build --target mr)" >&2
    exit 2
  fi
  for s in $SETS; do
    echo "$s at $NODES nodes" >&2
    "$MR" batch sweep --workload "${s%%:*}" --count "${s##*:}" --seed "$SEED" --nodes "$NODES" --csv \
      --slow-start "$SLOW_START" --pools-by "$POOLS_BY" --pool-search "$POOL_SEARCH" > "$out/$(name "$s").csv"
  done
fi

# Percent below: 100 (1 - a / b).
{
  echo "Makespans of each batch (seed $SEED) in the paper's time unit, nodes of one map and one"
  echo "reduce slot; \`mr batch sweep\` (docs/makespan.md). Johnson = MinSim's gain over MaxSim,"
  echo "BP = BalancedPools' gain over MinSim, each the largest over the sizes and at which size;"
  echo "room = how far MinSim lies above the lower bound at BP's size (no schedule can gain more)."
  echo "Slow start $SLOW_START, BalancedPools ranking jobs by $POOLS_BY, size search $POOL_SEARCH."
  echo
  echo "| batch | Johnson vs reverse (max) | BalancedPools vs Johnson (max) | room | paper |"
  echo "|---|---:|---:|---:|---|"
  for s in $SETS; do
    f="$out/$(name "$s").csv"
    [[ -f $f ]] || continue
    awk -F, -v b="$s" -v p="$(paper "$s")" 'NR > 1 {
        j = 100 * (1 - $4 / $5); q = 100 * (1 - $6 / $4)
        if (NR == 2 || j > jm) { jm = j; jn = $1 }
        if (NR == 2 || q > qm) { qm = q; qn = $1; room = 100 * (1 - $8 / $4) } }
      END { printf "| %s | %.1f%% (%d nodes) | %.1f%% (%d nodes) | %.1f%% | %s |\n", b, jm, jn, qm, qn, room, p }' "$f"
  done
  for s in $SETS; do
    f="$out/$(name "$s").csv"
    [[ -f $f ]] || continue
    echo
    echo "$s: $(paper "$s")"
    echo
    echo "| nodes | Min | Max | MinSim | MaxSim | BalancedPools | split | bound | MinSim vs MaxSim | BP vs MinSim | room |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    awk -F, 'NR > 1 { printf "| %d | %.0f | %.0f | %.0f | %.0f | %.0f | %d | %.0f | %.1f%% | %.1f%% | %.1f%% |\n",
      $1, $2, $3, $4, $5, $6, $7, $8, 100 * (1 - $4 / $5), 100 * (1 - $6 / $4), 100 * (1 - $8 / $4) }' "$f"
  done
} > "$out/results.md"
cat "$out/results.md"

if ! command -v gnuplot > /dev/null; then
  echo "run.sh: gnuplot not found; CSVs and results.md written, plots skipped" >&2
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in $SETS; do
  f="$out/$(name "$s").csv"
  [[ -f $f ]] || continue
  tail -n +2 "$f" | tr , ' ' > "$tmp/d.dat"
  gnuplot <<GP
set terminal pngcairo size 800,480 font ",10"
set output "$out/$(name "$s").png"
set title "$s: makespan vs cluster size (seed $SEED)"
set xlabel "nodes (one map and one reduce slot each)"
set ylabel "makespan (the paper's time unit)"
set key top right
set grid
plot "$tmp/d.dat" using 1:2 with linespoints lc 1 dt 2 pt 6 title "Min", \
     "" using 1:3 with linespoints lc 2 dt 2 pt 6 title "Max", \
     "" using 1:4 with linespoints lc 1 pt 7 title "MinSim", \
     "" using 1:5 with linespoints lc 2 pt 7 title "MaxSim", \
     "" using 1:6 with linespoints lc 3 pt 5 title "BalancedPools"
GP
done
echo "run.sh: plots written to $out/*.png" >&2
