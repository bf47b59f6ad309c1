#!/usr/bin/env bash
# The fault sweep at its smallest (issue 29, item 5): one instant, mid-job, for each victim
# (a worker SIGKILLed; the master SIGKILLed and restarted on its state and port), on local
# daemons. scripts/fault-sweep.sh exits non-zero unless every run ends with the exact output
# or a clean failure within its timeout; this checks also that both runs were made.
#   tests/tools/fault_sweep_test.sh SOURCE_DIR BUILD_DIR SCRATCH
set -euo pipefail
src=$1 build=$2 scratch=$3
rm -rf -- "$scratch"
mkdir -p "$scratch"
out=$(TMPDIR=$scratch "$src/scripts/fault-sweep.sh" --mr "$build/cli/mr" --instants 1 --mb 8 --timeout 100)
echo "$out"
grep -q '^1 *worker ' <<<"$out" || { echo "no worker run in the table"; exit 1; }
grep -q '^2 *master ' <<<"$out" || { echo "no master run in the table"; exit 1; }
grep -q '^2/2 runs ended exact or failed cleanly$' <<<"$out"
rmdir "$scratch"  # the sweep removed everything it made
