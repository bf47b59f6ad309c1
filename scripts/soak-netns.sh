#!/usr/bin/env bash
# Soak the network-fault cases of the namespace cluster test (issue 29: "the netfault and
# partition tests pass 10/10"): runs netns_cluster_test's NetnsFaultTest cases (the link cut,
# the worker partitioned from the master, and the reverse, the worker cut from its peers
# only; MR_SOAK_FILTER picks others) N times, each
# run on a fresh namespace cluster. Needs root. Prints the pass count; exits non-zero if any run failed.
#   scripts/soak-netns.sh [RUNS=10]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-10}"
BUILD_DIR="${MR_BUILD_DIR:-build}"
bin="$BUILD_DIR/tests/cluster/netns_cluster_test"
[[ -x "$bin" ]] || { echo "build netns_cluster_test first (cmake --build $BUILD_DIR --target netns_cluster_test mr)" >&2; exit 2; }
export MR_BIN="$PWD/$BUILD_DIR/cli/mr" MR_SOURCE_DIR="$PWD"
logs=$(mktemp -d /tmp/mr-soak-netns-XXXXXX)
pass=0
for ((i = 1; i <= runs; i++)); do
  scratch="$logs/run-$i"
  mkdir -p "$scratch"
  if (cd "$scratch" && TMPDIR="$scratch" "$OLDPWD/$bin" --gtest_filter="${MR_SOAK_FILTER:-NetnsFaultTest.*}" >"$logs/netfault-$i.log" 2>&1); then
    if grep -q '\[  SKIPPED \]' "$logs/netfault-$i.log"; then
      echo "skipped: $(grep -m1 -A1 'Skipped' "$logs/netfault-$i.log" | tail -1)"; exit 77
    fi
    pass=$((pass + 1))
  else
    echo "netfault run $i FAILED (log: $logs/netfault-$i.log)"
  fi
done
echo "netfault: $pass/$runs passed (logs in $logs)"
[[ $pass -eq $runs ]]
