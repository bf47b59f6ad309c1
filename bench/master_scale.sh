#!/usr/bin/env bash
# The master serving many worker processes on loopback (issue 6): starts one `mr master`
# and N `mr worker` processes (1 map + 1 reduce slot each), waits until all have
# registered, runs one synthetic job (default 128 maps, 16 reduces), checks it succeeded,
# and reports: registration time of all workers, job wall time, the master's CPU time and
# peak RSS (/proc), and the heartbeats the master handled per second (idle and during
# the job, from /api/cluster). Everything started here is stopped on exit, failure or ^C.
#
# usage: bench/master_scale.sh [--mr PATH] [--workers 64] [--maps 128] [--reducers 16]
#                              [--map-seconds 0.01] [--map-bytes 256KiB] [--idle 3]
#                              [--heartbeat-ms 20] [--max-heartbeat-rate 500] [--dir D]
set -euo pipefail

MR=build/cli/mr
WORKERS=64
MAPS=128
REDUCERS=16
MAP_SECONDS=0.01
MAP_BYTES=256KiB
IDLE=3
HEARTBEAT_MS=20
MAX_RATE=500
DIR=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --mr) MR=$2; shift 2 ;;
    --workers) WORKERS=$2; shift 2 ;;
    --maps) MAPS=$2; shift 2 ;;
    --reducers) REDUCERS=$2; shift 2 ;;
    --map-seconds) MAP_SECONDS=$2; shift 2 ;;
    --map-bytes) MAP_BYTES=$2; shift 2 ;;
    --idle) IDLE=$2; shift 2 ;;
    --heartbeat-ms) HEARTBEAT_MS=$2; shift 2 ;;
    --max-heartbeat-rate) MAX_RATE=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "master_scale.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -x $MR ]] || { echo "master_scale.sh: no mr binary at $MR (build it, or pass --mr)" >&2; exit 2; }
MR=$(realpath "$MR")
[[ -n $DIR ]] || DIR=$(mktemp -d /tmp/mr-master-scale.XXXXXX)
mkdir -p "$DIR"

PIDS=()
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  # Workers first (they would reconnect to a stopped master), then the master.
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill -TERM "${PIDS[i]}" 2>/dev/null || true; done
  for _ in $(seq 50); do
    local alive=0
    for p in "${PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [[ $alive == 0 ]] && break
    sleep 0.1
  done
  for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now() { date +%s.%N; }
ms_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
# utime + stime of a process, in seconds.
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$1/stat"; }
heartbeats() { curl -sf "http://$HTTP/api/cluster" | python3 -c 'import json,sys; print(json.load(sys.stdin)["heartbeats"])'; }

# Each worker holds a master connection, a shuffle listener and fetch connections.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

"$MR" master --listen 127.0.0.1:0 --http 127.0.0.1:0 --state "$DIR/state" --addr-file "$DIR/master.addr" \
  --heartbeat-ms "$HEARTBEAT_MS" --max-heartbeat-rate "$MAX_RATE" > "$DIR/master.log" 2>&1 &
MASTER_PID=$!
PIDS+=("$MASTER_PID")
for _ in $(seq 100); do [[ -s $DIR/master.addr ]] && break; sleep 0.05; done
[[ -s $DIR/master.addr ]] || { echo "master did not start:" >&2; cat "$DIR/master.log" >&2; exit 1; }
ADDR=$(cat "$DIR/master.addr")
HTTP=$(sed -n 's|.*status page on http://\([^/]*\)/.*|\1|p' "$DIR/master.log" | head -1)

T0=$(now)
for ((i = 0; i < WORKERS; i++)); do
  "$MR" worker --master "$ADDR" --work-dir "$DIR/w$i" --map-slots 1 --reduce-slots 1 > "$DIR/worker-$i.log" 2>&1 &
  PIDS+=("$!")
done
registered=0
for _ in $(seq 600); do
  registered=$(grep -c ' registered: ' "$DIR/master.log" || true)
  [[ $registered -ge $WORKERS ]] && break
  sleep 0.05
done
REGISTER_MS=$(ms_since "$T0")
[[ $registered -ge $WORKERS ]] || { echo "only $registered of $WORKERS workers registered" >&2; exit 1; }

# Idle cluster: the heartbeat rate the master sustains with no job.
HB0=$(heartbeats); CPU0=$(cpu_seconds "$MASTER_PID"); TI=$(now)
sleep "$IDLE"
HB1=$(heartbeats); CPU1=$(cpu_seconds "$MASTER_PID")
IDLE_S=$(awk -v a="$TI" -v b="$(now)" 'BEGIN { print b - a }')

TJ=$(now)
if ! "$MR" run synthetic -q --master "$ADDR" --maps "$MAPS" --reducers "$REDUCERS" --map-seconds "$MAP_SECONDS" \
    --map-bytes "$MAP_BYTES" --output "$DIR/out" > "$DIR/run.log" 2>&1; then
  echo "the job failed:" >&2; cat "$DIR/run.log" >&2; tail -20 "$DIR/master.log" >&2; exit 1
fi
JOB_MS=$(ms_since "$TJ")
HB2=$(heartbeats); CPU2=$(cpu_seconds "$MASTER_PID")
JOB_S=$(awk -v ms="$JOB_MS" 'BEGIN { print ms / 1000 }')
parts=$(ls "$DIR/out" | grep -c '^part-r-' || true)
[[ -f $DIR/out/_SUCCESS && $parts -eq $REDUCERS ]] || { echo "output incomplete: $parts parts" >&2; exit 1; }
RESPONSE=$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["event"] == "job_end": print("%.2f" % e["response_time"])' "$DIR/out/_trace.jsonl")
HWM=$(awk '/^VmHWM/ { print $2 / 1024 }' "/proc/$MASTER_PID/status")
TOTAL_CPU=$(cpu_seconds "$MASTER_PID")

rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n / s }'; }
per_hb() { awk -v c="$1" -v n="$2" 'BEGIN { if (n > 0) printf "%.0f", c * 1e6 / n; else print "-" }'; }
cat <<EOF
master_scale: $WORKERS workers (1 map + 1 reduce slot each), synthetic $MAPS maps x $REDUCERS reduces
  ($MAP_SECONDS s CPU, $MAP_BYTES per map), --heartbeat-ms $HEARTBEAT_MS --max-heartbeat-rate $MAX_RATE; dir $DIR
registration of all workers:  $REGISTER_MS ms (from the first worker's launch)
job wall time (mr run):       $JOB_MS ms   (submit -> job_end: ${RESPONSE} s)
heartbeats handled, idle:     $(rate $((HB1 - HB0)) "$IDLE_S")/s   (master CPU $(per_hb "$(awk -v a="$CPU0" -v b="$CPU1" 'BEGIN{print b-a}')" $((HB1 - HB0))) us per heartbeat)
heartbeats handled, job:      $(rate $((HB2 - HB1)) "$JOB_S")/s   (master CPU $(awk -v a="$CPU1" -v b="$CPU2" 'BEGIN{printf "%.2f", b-a}') s during the job)
master CPU time, total:       $TOTAL_CPU s   peak RSS (VmHWM): $HWM MiB
EOF
