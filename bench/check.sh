#!/usr/bin/env bash
# Regression guard (not a test): runs a fresh `throughput.sh --quick` into a scratch
# directory and compares its ratios (mr time / peer time) with those recorded in
# bench/results.json (its quick section, written by the last `throughput.sh --quick`; the
# full run's ratios otherwise). Prints every ratio and exits 1 if any got worse by more
# than 20% (override: --threshold 0.3). Other arguments go to throughput.sh.
#
#   bench/check.sh [--threshold F] [throughput.sh args, e.g. --runs 3 --no-mpi]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
threshold=0.2
args=()
while (($#)); do
  case $1 in
    --threshold) threshold=${2:?--threshold needs a fraction}; shift ;;
    -h|--help) sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$1") ;;
  esac
  shift
done
baseline=$here/results.json
[[ -f $baseline ]] || { echo "check.sh: no $baseline; run bench/throughput.sh first" >&2; exit 2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/mr-bench-check.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
"$here/throughput.sh" --quick --report-dir "$scratch" "${args[@]}"
python3 "$here/report.py" check --baseline "$baseline" --fresh "$scratch/results.json" --threshold "$threshold"
