#!/usr/bin/env bash
# Soak the fault tests: the crash test (workers SIGKILLed at random while word count
# and sort run) and the master SIGKILL-and-restart test, each repeated N times.
# Prints the pass counts; exits non-zero if any repetition failed.
#   scripts/soak.sh [CRASH_RUNS=20] [RESTART_RUNS=10]
set -euo pipefail
cd "$(dirname "$0")/.."
crash_runs="${1:-20}"
restart_runs="${2:-10}"
BUILD_DIR="${MR_BUILD_DIR:-build}"
[[ -x "$BUILD_DIR/tests/cluster/crash_test" ]] || scripts/build.sh
export MR_BIN="$PWD/$BUILD_DIR/cli/mr"
logs=$(mktemp -d /tmp/mr-soak-XXXXXX)

soak() {  # name binary runs
  local name=$1 bin=$2 runs=$3 pass=0
  for ((i = 1; i <= runs; i++)); do
    if "$bin" >"$logs/$name-$i.log" 2>&1; then
      pass=$((pass + 1))
    else
      echo "$name run $i FAILED (log: $logs/$name-$i.log)"
    fi
  done
  echo "$name: $pass/$runs passed"
  [[ $pass -eq $runs ]]
}

status=0
soak crash "$BUILD_DIR/tests/cluster/crash_test" "$crash_runs" || status=1
soak master-restart "$BUILD_DIR/tests/cluster/master_restart_test" "$restart_runs" || status=1
echo "logs in $logs"
exit $status
