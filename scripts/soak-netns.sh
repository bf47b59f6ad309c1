#!/usr/bin/env bash
# Soak the network-fault case of the namespace cluster test (issue 29: "the link-cut test
# passes 10/10"): runs netns_cluster_test's LinkCutMidJobEndsExact N times, each on a fresh
# namespace cluster. Needs root. Prints the pass count; exits non-zero if any run failed.
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
  if (cd "$scratch" && TMPDIR="$scratch" "$OLDPWD/$bin" --gtest_filter='*LinkCut*' >"$logs/link-cut-$i.log" 2>&1); then
    if grep -q '\[  SKIPPED \]' "$logs/link-cut-$i.log"; then
      echo "skipped: $(grep -m1 -A1 'Skipped' "$logs/link-cut-$i.log" | tail -1)"; exit 77
    fi
    pass=$((pass + 1))
  else
    echo "link-cut run $i FAILED (log: $logs/link-cut-$i.log)"
  fi
done
echo "link-cut: $pass/$runs passed (logs in $logs)"
[[ $pass -eq $runs ]]
