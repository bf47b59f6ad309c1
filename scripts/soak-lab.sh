#!/usr/bin/env bash
# The course lab's crash test as a soak (issue 11): a word count whose streaming mapper
# and reducer each exit 1 a third of the time at random (before reading or after
# consuming their input), on a 2-worker cluster started with --max-attempts 10. Every run
# must end, succeed and match the coreutils reference byte for byte. Prints
# "lab soak: N/RUNS exact"; exits non-zero unless every run was exact.
#   scripts/soak-lab.sh [RUNS=50]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-50}"
BUILD_DIR="${MR_BUILD_DIR:-build}"
[[ -x "$BUILD_DIR/cli/mr" ]] || scripts/build.sh
mr="$PWD/$BUILD_DIR/cli/mr"
d=$(mktemp -d /tmp/mr-soak-lab-XXXXXX)
cleanup() { "$mr" cluster stop --dir "$d/cluster" >/dev/null 2>&1 || true; rm -rf "$d"; }
trap cleanup EXIT

# A third of the attempts fail: half of those at once, half after reading their input.
cat >"$d/flaky" <<'SH'
r=$(od -An -N1 -tu1 /dev/urandom | tr -d ' ')
case $((r % 6)) in
  0) exit 1 ;;
  1) cat >/dev/null; exit 1 ;;
esac
SH
cat >"$d/map.sh" <<SH
. $d/flaky
tr -cs 'A-Za-z' '\n' | awk 'NF { print \$0 "\t1" }'
SH
cat >"$d/reduce.sh" <<SH
. $d/flaky
awk -F '\t' '{ c[\$1] += \$2 } END { for (k in c) print k "\t" c[k] }'
SH
# Small input, a few maps: 50 runs take minutes.
awk 'BEGIN { srand(7); for (i = 0; i < 4000; i++) { printf "w%d lab%d Crash %d\n", int(rand() * 300), i % 7, i } }' >"$d/in.txt"
tr -cs 'A-Za-z' '\n' <"$d/in.txt" | LC_ALL=C sort | uniq -c | awk '$2 != "" { print $2 "\t" $1 }' | LC_ALL=C sort >"$d/want"

addr=$("$mr" cluster start --workers 2 --dir "$d/cluster" --max-attempts 10 2>"$d/start.log") \
  || { cat "$d/start.log"; exit 1; }
exact=0
for ((i = 1; i <= runs; i++)); do
  out="$d/out$i"
  if timeout 120 "$mr" run streaming --quiet --master "$addr" --mapper "sh $d/map.sh" --reducer "sh $d/reduce.sh" \
      --input "$d/in.txt" --output "$out" --reducers 2 --split-size 16KiB >"$d/run$i.log" 2>&1 \
    && cat "$out"/part-r-* | LC_ALL=C sort | cmp -s - "$d/want"; then
    exact=$((exact + 1))
  else
    echo "run $i not exact (exit or output differs):"; tail -3 "$d/run$i.log"
  fi
  rm -rf "$out"
done
# The faults really happened: failed attempts over all runs, from the master's counters.
failed=$("$mr" status --json --master "$addr" 2>/dev/null | python3 -c '
import json, sys
doc = json.load(sys.stdin)
jobs = doc.get("jobs", doc if isinstance(doc, list) else [])
print(sum(j.get("counters", {}).get(k, 0) for j in jobs for k in ("job.failed_maps", "job.failed_reduces")))
' 2>/dev/null || echo "?")
echo "failed attempts retried over all runs: $failed"
echo "lab soak: $exact/$runs exact"
[[ $exact -eq $runs ]]
