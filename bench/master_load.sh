#!/usr/bin/env bash
# One real `mr master` against thousands of simulated workers (issue 29, item 6;
# docs/master-load.md). For each worker count: starts a master on a fresh state directory,
# runs `mr loadgen` against it (register, idle, jobs of short tasks, then one longer job
# during which the master is killed with SIGKILL and started again on the same state
# directory and ports), and prints the generator's table: heartbeats/s (as the workers and
# the master count them), heartbeat reply p50/p99 seen by the workers, the master's
# handling, round and decision-per-free-slot times (p50/p99), its CPU and RSS, job
# throughput and the time to recover from the restart. Everything started here is stopped
# on exit, failure or ^C; the directory is removed unless --keep.
#
# usage: bench/master_load.sh [--mr PATH] [--workers "1000 5000"] [--threads 2] [--jobs 10]
#          [--concurrent-jobs 2] [--maps 2000] [--reducers 100] [--task-seconds 0.05]
#          [--map-slots 1] [--reduce-slots 1] [--idle 5] [--heartbeat-ms 20]
#          [--max-heartbeat-rate 500] [--worker-timeout 10] [--policy fifo]
#          [--no-restart] [--restart-map-seconds 2] [--restart-maps N] [--runs 1] [--dir D]
#          [--keep] [-- MASTER_FLAGS...]
# --runs N repeats every worker count N times, alternating the counts (1000, 5000, 1000, ...),
# each run on a fresh master, for a spread: after the runs, bench/master_load_summary.py prints
# each measure's median and range over them (each run's result.json is kept under DIR/summary).
set -euo pipefail

MR=build/cli/mr
WORKER_COUNTS="1000 5000"
THREADS=2
JOBS=10
CONCURRENT=2
MAPS=2000
REDUCERS=100
TASK_SECONDS=0.05
MAP_SLOTS=1
REDUCE_SLOTS=1
IDLE=5
HEARTBEAT_MS=20
MAX_RATE=500
WORKER_TIMEOUT=10
POLICY=fifo
RESTART=1
RESTART_MAP_SECONDS=2
RESTART_MAPS=0  # 0: three waves of the cluster's map slots
DIR=""
KEEP=0
RUNS=1
EXTRA=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --mr) MR=$2; shift 2 ;;
    --workers) WORKER_COUNTS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --concurrent-jobs) CONCURRENT=$2; shift 2 ;;
    --maps) MAPS=$2; shift 2 ;;
    --reducers) REDUCERS=$2; shift 2 ;;
    --task-seconds) TASK_SECONDS=$2; shift 2 ;;
    --map-slots) MAP_SLOTS=$2; shift 2 ;;
    --reduce-slots) REDUCE_SLOTS=$2; shift 2 ;;
    --idle) IDLE=$2; shift 2 ;;
    --heartbeat-ms) HEARTBEAT_MS=$2; shift 2 ;;
    --max-heartbeat-rate) MAX_RATE=$2; shift 2 ;;
    --worker-timeout) WORKER_TIMEOUT=$2; shift 2 ;;
    --policy) POLICY=$2; shift 2 ;;
    --no-restart) RESTART=0; shift ;;
    --restart-map-seconds) RESTART_MAP_SECONDS=$2; shift 2 ;;
    --restart-maps) RESTART_MAPS=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    --keep) KEEP=1; shift ;;
    --) shift; EXTRA=("$@"); break ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "master_load.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -x $MR ]] || { echo "master_load.sh: no mr binary at $MR (build it, or pass --mr)" >&2; exit 2; }
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "master_load.sh: --runs must be a positive integer" >&2; exit 2; }
MR=$(realpath "$MR")
MADE_DIR=0
if [[ -z $DIR ]]; then DIR=$(mktemp -d /tmp/mr-master-load.XXXXXX); MADE_DIR=1; fi
mkdir -p "$DIR"

MASTER_PID=""
LOADGEN_PID=""
stop_pid() {  # TERM, then KILL after 5 s; reaps it
  local p=$1
  [[ -n $p ]] || return 0
  kill -TERM "$p" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$p" 2>/dev/null || true
  wait "$p" 2>/dev/null || true
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  stop_pid "$LOADGEN_PID"
  stop_pid "$MASTER_PID"
  if [[ $KEEP == 0 && $MADE_DIR == 1 ]]; then rm -rf "$DIR"; elif [[ $KEEP == 1 ]]; then echo "kept $DIR" >&2; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Every simulated worker holds one connection at the generator and one at the master.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# start_master RUN LISTEN HTTP: the master on RUN's state directory; its pid in RUN/master.pid.
start_master() {
  local run=$1 listen=$2 http=$3 n
  n=$(find "$run" -maxdepth 1 -name 'master-*.log' | wc -l)
  rm -f "$run/addr" "$run/http"
  "$MR" master --listen "$listen" --http "$http" --state "$run/state" --addr-file "$run/addr" \
    --http-addr-file "$run/http" --policy "$POLICY" --heartbeat-ms "$HEARTBEAT_MS" \
    --max-heartbeat-rate "$MAX_RATE" --worker-timeout "$WORKER_TIMEOUT" "${EXTRA[@]}" \
    > "$run/master-$n.log" 2>&1 &
  MASTER_PID=$!
  echo "$MASTER_PID" > "$run/master.pid"
  for _ in $(seq 200); do [[ -s $run/addr ]] && return 0; sleep 0.05; done
  echo "master did not start:" >&2; cat "$run/master-$n.log" >&2; return 1
}

for ((R = 1; R <= RUNS; R++)); do
for WORKERS in $WORKER_COUNTS; do
  RUN=$DIR/w$WORKERS-r$R
  rm -rf "$RUN"; mkdir -p "$RUN/out"
  start_master "$RUN" 127.0.0.1:0 127.0.0.1:0
  ADDR=$(cat "$RUN/addr"); HTTP=$(cat "$RUN/http")
  ARGS=(loadgen --master "$ADDR" --master-http "$HTTP" --master-pid-file "$RUN/master.pid"
        --workers "$WORKERS" --threads "$THREADS" --map-slots "$MAP_SLOTS" --reduce-slots "$REDUCE_SLOTS"
        --task-seconds "$TASK_SECONDS" --reduce-seconds "$TASK_SECONDS" --idle "$IDLE" --jobs "$JOBS"
        --concurrent-jobs "$CONCURRENT" --maps "$MAPS" --reducers "$REDUCERS" --out "$RUN/out"
        --json "$RUN/result.json")
  [[ $RESTART == 1 ]] && ARGS+=(--restart --restart-map-seconds "$RESTART_MAP_SECONDS" --restart-maps "$RESTART_MAPS")
  "$MR" "${ARGS[@]}" > "$RUN/loadgen.log" 2>&1 &
  LOADGEN_PID=$!
  if [[ $RESTART == 1 ]]; then
    # The cue: the master is killed at once and started again on the same state and ports.
    until grep -q 'restart the master now' "$RUN/loadgen.log" 2>/dev/null; do
      kill -0 "$LOADGEN_PID" 2>/dev/null || break
      sleep 0.02
    done
    if grep -q 'restart the master now' "$RUN/loadgen.log"; then
      kill -KILL "$MASTER_PID"; wait "$MASTER_PID" 2>/dev/null || true
      start_master "$RUN" "$ADDR" "$HTTP"
    fi
  fi
  rc=0; wait "$LOADGEN_PID" || rc=$?
  LOADGEN_PID=""
  echo "== run $R/$RUNS: $WORKERS simulated workers; master --policy $POLICY --heartbeat-ms $HEARTBEAT_MS" \
       "--max-heartbeat-rate $MAX_RATE --worker-timeout $WORKER_TIMEOUT ${EXTRA[*]}; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
  grep -v 'restart the master now' "$RUN/loadgen.log" || true
  lost=$(cat "$RUN"/master-*.log | grep -c ' lost: ' || true)
  echo "workers the master declared lost: $lost"
  mkdir -p "$DIR/summary/w$WORKERS-r$R"
  [[ -f $RUN/result.json ]] && cp "$RUN/result.json" "$DIR/summary/w$WORKERS-r$R/"
  echo "$lost" > "$DIR/summary/w$WORKERS-r$R/lost.txt"
  stop_pid "$MASTER_PID"; MASTER_PID=""
  [[ $rc == 0 ]] || { echo "mr loadgen failed (exit $rc); logs in $RUN" >&2; KEEP=1; exit "$rc"; }
  [[ $KEEP == 1 ]] || rm -rf "$RUN"  # read: each run's state and traces go at once
done
done
if [[ $RUNS -gt 1 ]]; then
  python3 "$(dirname "$0")/master_load_summary.py" "$DIR"/summary/w*-r* || true
fi
