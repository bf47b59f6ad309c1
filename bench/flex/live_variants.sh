#!/usr/bin/env bash
# The simulated effects of flex's live-layer variants (docs/policies.md, "flex",
# "Departures from the paper"; docs/validation/flex.md): the workload and cluster of
# examples/experiments/flex-bunched-slack{15,35,55,75,95}.yaml under fair and flex
# (response time, epoch 500 ms) with the paper's defaults and each variant, as the
# bunched file and with all ten arrivals at time 0 (the paper's cluster runs). The
# task-level simulator runs the same policy code, uncalibrated, with the master's 0.1 s
# rounds; the harness is the examples test (tests/experiment/examples_test.cc), pointed at
# a scratch directory of generated files. Deterministic; nothing is timed.
#   bench/flex/live_variants.sh     (after: cmake --build build --target experiment_test)
# Prints, per file, each policy's simulated mean response time; flex/fair is their ratio.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TEST_BIN=${TEST_BIN:-$root/build/tests/experiment/experiment_test}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/examples/experiments" "$scratch/examples/workloads/csv"
csv=$root/examples/workloads/csv/flex-bunched.csv
cp "$csv" "$scratch/examples/workloads/csv/"
# The same jobs, every arrival at 0.
awk -F, 'BEGIN { OFS = "," } /^#/ { next } $1 != "arrival" { $1 = 0 } { print }' "$csv" \
  > "$scratch/examples/workloads/csv/flex-at0.csv"
cp "$root"/examples/experiments/flex-slack*.pools "$scratch/examples/experiments/"
for s in 15 35 55 75 95; do
  for arrivals in bunched at0; do
    w=flex-bunched.csv
    [ "$arrivals" = at0 ] && w=flex-at0.csv
    p="flex-metric: response-time, flex-epoch: 500ms, flex-pools: flex-slack$s.pools"
    cat > "$scratch/examples/experiments/slack$s-$arrivals.yaml" <<EOF
name: slack$s-$arrivals
cluster:
  workers:
    - {count: 4, map_slots: 2, reduce_slots: 1, speed: 1, shuffle_bandwidth: 20MB/s}
  heartbeat_ms: 20
  slow_start: 1
  work: sleep
workload:
  csv: ../workloads/csv/$w
policies:
  - {policy: fair, label: fair, options: {pools: flex-slack$s.pools}}
  - {policy: flex, label: paper, options: {$p}}
  - {policy: flex, label: membership, options: {$p, flex-replan: membership}}
  - {policy: flex, label: unestimated, options: {$p, flex-new-phase: unestimated}}
  - {policy: flex, label: both, options: {$p, flex-replan: membership, flex-new-phase: unestimated}}
  - {policy: flex, label: even-split, options: {$p, flex-pool-split: even}}
  - {policy: flex, label: unestimated-even, options: {$p, flex-new-phase: unestimated, flex-pool-split: even}}
EOF
  done
done
(cd "$scratch" && MR_SOURCE_DIR="$scratch" TMPDIR="$scratch" "$TEST_BIN" \
   --gtest_filter='ExampleExperimentsTest.*') | grep -E '^slack|simulated mean' |
  sed 's/: 10 jobs.*//; s/ *simulated mean response/  mean/'
