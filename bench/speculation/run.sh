#!/usr/bin/env bash
# Speculative execution bench (issue 15, item 8; docs/speculation.md): 4 workers with one map
# slot each on a local cluster, a synthetic job of 12 maps of 0.4 s of work each. Job time
# (submit to end, the master's clock) with speculation on vs --speculative off, alternating
# on/off, RUNS runs each; medians, spread (min-max) and the ratio on/off. Two cases: one
# worker at --speed 0.1 (target ratio <= 0.7), and all four at speed 1 (target <= 1.05).
#
#   bench/speculation/run.sh [--runs 5] [--work sleep|burn] [--task map|reduce] [--no-build]
#
#   --runs N     runs per mode and case (default 5)
#   --task       what straggles: map (default: 12 maps of 0.4 s, 1 reduce) or reduce (12 maps
#                of 0.05 s, 4 reduces of 0.4 s each: the slow worker's reducer is the straggler)
#   --work       the synthetic maps' work: sleep (default: the slot is held without CPU, so
#                4 workers on a 2-core machine do not share cores) or burn (real CPU)
#   --no-build   use $MR_BIN (default build/cli/mr) as it is
#
# Writes bench/speculation/results-WORK.md, or results-WORK-reduce.md (and prints it). Run it on an idle machine: it times
# real processes (check `uptime` first).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=5
work=sleep
task=map
do_build=1
usage() { sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
while (($#)); do
  case $1 in
    --runs) runs=${2:?--runs needs a number}; shift ;;
    --work) work=${2:?--work needs sleep or burn}; shift ;;
    --task) task=${2:?--task needs map or reduce}; shift ;;
    --no-build) do_build=0 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --runs must be a positive integer, not '$runs'" >&2; exit 2; }
[[ $work == sleep || $work == burn ]] || { echo "run.sh: --work must be sleep or burn, not '$work'" >&2; exit 2; }
[[ $task == map || $task == reduce ]] || { echo "run.sh: --task must be map or reduce, not '$task'" >&2; exit 2; }
if [[ $task == map ]]; then
  job_args=(--maps 12 --map-seconds 0.4 --reducers 1)
  results=$here/results-$work.md
else
  job_args=(--maps 12 --map-seconds 0.05 --reducers 4 --reduce-seconds 0.4)
  results=$here/results-$work-reduce.md
fi

log() { printf '[speculation %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { echo "run.sh: $*" >&2; exit 1; }

build_dir=${MR_BUILD_DIR:-$root/build}
MR_BIN=${MR_BIN:-$build_dir/cli/mr}
if ((do_build)); then
  log "building mr in $build_dir (-j2)"
  cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMR_WERROR=ON >/dev/null
  cmake --build "$build_dir" -j2 --target mr >/dev/null
fi
[[ -x $MR_BIN ]] || die "MR_BIN=$MR_BIN is not an executable (build it, or set MR_BIN)"
command -v python3 >/dev/null || die "python3 is needed"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/mr-speculation.XXXXXX")
cluster=""
addr=""
slow_pid=""
cleanup() {
  if [[ -n $slow_pid ]]; then kill "$slow_pid" 2>/dev/null || true; wait "$slow_pid" 2>/dev/null || true; fi
  if [[ -n $cluster && -f $cluster/master.pid ]]; then "$MR_BIN" cluster stop --dir "$cluster" >/dev/null 2>&1 || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# One cluster per case: 3 workers by `mr cluster start`, the 4th by hand at `speed`. Sets
# cluster, addr and slow_pid (not in a subshell: cleanup needs them).
start_cluster() {
  local case=$1 speed=$2 n=0
  cluster=$scratch/$case
  addr=$("$MR_BIN" cluster start --workers 3 --map-slots 1 --reduce-slots 1 --dir "$cluster" 2>/dev/null)
  "$MR_BIN" worker --master "$addr" --work-dir "$cluster/w-fourth" --map-slots 1 --reduce-slots 1 \
    --speed "$speed" >"$cluster/worker-fourth.log" 2>&1 &
  slow_pid=$!
  for _ in $(seq 100); do
    n=$("$MR_BIN" status --json --master "$addr" | python3 -c 'import json,sys; print(json.load(sys.stdin)["workers"])')
    [[ $n == 4 ]] && break
    sleep 0.1
  done
  [[ $n == 4 ]] || die "the 4th worker did not register (see $cluster/worker-fourth.log)"
}

stop_cluster() {
  kill "$slow_pid" 2>/dev/null || true
  wait "$slow_pid" 2>/dev/null || true
  slow_pid=""
  "$MR_BIN" cluster stop --dir "$cluster" >/dev/null
  cluster=""
}

# Seconds from submission to the job's end, from the master's status.
job_seconds() {
  "$MR_BIN" status --json "$2" --master "$1" |
    python3 -c 'import json,sys; s=json.load(sys.stdin); assert s["state"]=="SUCCEEDED", s["state"]; print(s["end_time"]-s["submit_time"])'
}

csv=$scratch/times.csv
echo "case,mode,run,seconds,backups,won" >"$csv"
for case in slow even; do
  speed=0.1; [[ $case == even ]] && speed=1
  start_cluster "$case" "$speed"
  log "case $case: 4 workers (the 4th at speed $speed), $runs runs per mode, work=$work"
  job=0
  for ((i = 1; i <= runs; i++)); do
    for mode in on off; do
      job=$((job + 1))
      id=$(printf 'job-%06d' "$job")
      "$MR_BIN" run synthetic --quiet "${job_args[@]}" --map-bytes 64KB --work "$work" \
        --speculative "$mode" --output "$scratch/out-$case-$job" --master "$addr" >/dev/null
      secs=$(job_seconds "$addr" "$id")
      counts=$("$MR_BIN" status --json "$id" --master "$addr" |
        python3 -c 'import json,sys; c=json.load(sys.stdin)["counters"]; k=sys.argv[1]; print(c.get(f"job.backup_{k}s",0), c.get(f"job.backup_{k}s_won",0))' "$task")
      echo "$case,$mode,$i,$secs,${counts% *},${counts#* }" >>"$csv"
      log "  $case $mode run $i: ${secs}s (backups, won: $counts)"
    done
  done
  stop_cluster
done

python3 - "$csv" "$work" "$runs" "$(uptime | sed 's/.*load average: //')" "$task" >"$results" <<'PY'
import csv, statistics, sys
path, work, runs, load, task = sys.argv[1:6]
rows = list(csv.DictReader(open(path)))
what = "12 maps of 0.4 s, 1 reduce" if task == "map" else "12 maps of 0.05 s, 4 reduces of 0.4 s"
print(f"# Speculation bench ({task} backups): {what} ({work}), 4 workers x 1 map + 1 reduce slot, {runs} alternating runs per mode\n")
print(f"| case | mode | median s | min s | max s | {task} backups (won) |")
print("|---|---|---|---|---|---|")
med = {}
for case in ("slow", "even"):
    for mode in ("on", "off"):
        r = [x for x in rows if x["case"] == case and x["mode"] == mode]
        t = [float(x["seconds"]) for x in r]
        med[case, mode] = statistics.median(t)
        b = sum(int(x["backups"]) for x in r); w = sum(int(x["won"]) for x in r)
        print(f"| {case} | {mode} | {med[case, mode]:.3f} | {min(t):.3f} | {max(t):.3f} | {b} ({w}) |")
print()
print(f"- one worker at speed 0.1: median on / median off = {med['slow','on'] / med['slow','off']:.3f} (target <= 0.7)")
print(f"- all at speed 1: median on / median off = {med['even','on'] / med['even','off']:.3f} (target <= 1.05)")
print(f"- load average at the end: {load}")
PY
cat "$results"
