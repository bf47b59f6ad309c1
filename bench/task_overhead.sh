#!/usr/bin/env bash
# Fixed costs of mrlab (issue 30): what a task and a whole `mr run` cost beyond their work.
#
#   bench/task_overhead.sh [--runs N] [--maps M] [--workers W] [--mr PATH]
#
#   --runs N      runs of every command, alternating (default 7)
#   --maps M      maps of the many-task job (default 200)
#   --workers W   workers of the cluster (default 2; one map slot each, the default)
#   --mr PATH     the mr binary (default: $MR_BUILD_DIR/cli/mr, else build/cli/mr)
#
# Three empty synthetic jobs (no input, no work), alternating run by run:
#   cluster-1    1 map, 1 reduce, on a running cluster (mr cluster start): submit to end
#   cluster-M    M maps, 1 reduce, on the same cluster
#   embedded-1   1 map, 1 reduce, `mr run` with its embedded cluster (what a user types)
# and reports, from the medians:
#   per task, wall   (cluster-M - cluster-1) x map slots / (M - 1): the slot time one more
#                    empty map costs (assignment, start, commit, heartbeats)
#   per task, trace  median of the master's attempt_start -> attempt_end over the maps of
#                    every cluster-M run (what a map holds its slot for)
#   embedded fixed   embedded-1 - cluster-1: starting and stopping the embedded cluster
# Times are wall clock: run on a quiet machine for a recorded number.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
runs=7
maps=200
workers=2
mr=${MR_BUILD_DIR:-$root/build}/cli/mr
while (($#)); do
  case $1 in
    --runs) runs=${2:?}; shift ;;
    --maps) maps=${2:?}; shift ;;
    --workers) workers=${2:?}; shift ;;
    --mr) mr=${2:?}; shift ;;
    -h|--help) sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "task_overhead.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
[[ $runs =~ ^[1-9][0-9]*$ && $maps =~ ^[1-9][0-9]*$ && $maps -ge 2 && $workers =~ ^[1-9][0-9]*$ ]] ||
  { echo "task_overhead.sh: --runs, --workers >= 1 and --maps >= 2 are whole numbers" >&2; exit 2; }
[[ -x $mr ]] || { echo "task_overhead.sh: no mr binary at $mr (build the mr target or give --mr)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mr-task-overhead.XXXXXX")
cleanup() { "$mr" cluster stop --dir "$work/cluster" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
"$mr" cluster start --workers "$workers" --dir "$work/cluster" >/dev/null 2>&1
master=$(cat "$work/cluster/master.addr")

now() { date +%s.%N; }
# run NAME CMD...: one timed run, its wall seconds appended to $work/NAME.times
run() {
  local name=$1 t0 t1; shift
  rm -rf "$work/out"
  t0=$(now)
  "$@" >/dev/null
  t1=$(now)
  echo "$t1 - $t0" | bc -l >>"$work/$name.times"
  if [[ $name == cluster-M ]]; then cp "$work/out/_trace.jsonl" "$work/trace-$(wc -l <"$work/$name.times").jsonl"; fi
}
for ((i = 0; i < runs; i++)); do
  run cluster-1 "$mr" run synthetic -q --master "$master" --maps 1 --reducers 1 --output "$work/out"
  run cluster-M "$mr" run synthetic -q --master "$master" --maps "$maps" --reducers 1 --output "$work/out"
  run embedded-1 "$mr" run synthetic -q --workers "$workers" --maps 1 --reducers 1 --output "$work/out"
done

python3 - "$work" "$maps" "$workers" "$runs" <<'EOF'
import glob, json, statistics, sys
work, maps, slots, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
def times(name):
    return [float(x) for x in open(f"{work}/{name}.times")]
med = {n: statistics.median(times(n)) for n in ("cluster-1", "cluster-M", "embedded-1")}
spans = []
for path in glob.glob(f"{work}/trace-*.jsonl"):
    starts = {}
    for line in open(path):
        e = json.loads(line)
        key = (e.get("task"), e.get("attempt"))
        if e.get("slot") != "map":
            continue
        if e["event"] == "attempt_start":
            starts[key] = e["t"]
        elif e["event"] == "attempt_end" and key in starts:
            spans.append(e["t"] - starts[key])
print(f"runs {runs}, {maps} maps, {slots} workers x 1 map slot (medians, wall clock)")
for n in ("cluster-1", "cluster-M", "embedded-1"):
    t = times(n)
    print(f"  {n:11s} {med[n]*1000:8.1f} ms  (min {min(t)*1000:.1f}, max {max(t)*1000:.1f})")
print(f"per task, wall:  {(med['cluster-M'] - med['cluster-1']) * slots / (maps - 1) * 1000:.2f} ms of slot time")
if spans:
    print(f"per task, trace: {statistics.median(spans) * 1000:.2f} ms median attempt_start -> attempt_end ({len(spans)} maps)")
print(f"embedded fixed:  {(med['embedded-1'] - med['cluster-1']) * 1000:.1f} ms (start and stop of the embedded cluster)")
EOF
