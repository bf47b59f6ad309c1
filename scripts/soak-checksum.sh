#!/usr/bin/env bash
# Soak the end-to-end checksums (tests/cluster/checksum_test.cc): RUNS times, one bit is
# flipped in a finished map output on the serving worker before any reducer fetched it,
# and RUNS times in a fetched run on the reducer's disk before the merge. A run counts as
# exact when the job succeeded with output byte-identical to `LC_ALL=C sort` of the input
# and the recovery the test expects happened (map re-executed / run refetched).
#   scripts/soak-checksum.sh [RUNS=10]     prints "checksum soak: N/2*RUNS exact"
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-10}"
BUILD_DIR="${MR_BUILD_DIR:-build}"
bin="$BUILD_DIR/tests/cluster/checksum_test"
[[ -x $bin ]] || { echo "soak-checksum: $bin not built (scripts/build.sh)" >&2; exit 1; }
export MR_BIN="$PWD/$BUILD_DIR/cli/mr"
logs=$(mktemp -d /tmp/mr-soak-checksum-XXXXXX)
exact=0
for filter in '*FlippedBitInServedMapOutput*' '*FlippedBitInFetchedRun*'; do
  for ((i = 1; i <= runs; i++)); do
    log="$logs/${filter//\*/}-$i.log"
    if "$bin" --gtest_filter="$filter" >"$log" 2>&1; then
      exact=$((exact + 1))
    else
      echo "run $filter #$i FAILED (log: $log)"
    fi
  done
done
echo "checksum soak: $exact/$((2 * runs)) exact"
echo "logs in $logs"
[[ $exact -eq $((2 * runs)) ]]
