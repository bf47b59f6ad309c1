#!/usr/bin/env bash
# A small live run to read with `mr model mst-trace` (docs/mst.md, "A run's trace against the
# model"): one master (pull placement, fifo), 4 workers of speeds 1, 0.75, 0.5, 0.25 with one
# map slot each and injected exponential stragglers (offset 50 ms, tail mean 100 ms), and a
# seeded Poisson stream of synthetic jobs with 4 maps of 0.2 s of sleep work each (the work
# sleeps, so the 2-core machine's load does not change the service times). Then prints the
# analysis. Writes OUT (default bench/mst/out/live-seedSEED), deleting its previous contents.
#   bench/mst/live_trace.sh [JOBS [RATE [SEED]]]      # defaults 200 jobs, 0.5 jobs/s, seed 1
# PLACEMENT=even|dep|sep|mep (env) runs the master with --placement (default pull), and
# MASTER_ARGS (env) adds master options, e.g. "--placement-model dtd".
# Run it under SCHED_IDLE on a shared machine: chrt -i 0 nice -n 19 bench/mst/live_trace.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
MR_BIN=${MR_BIN:-$root/build/cli/mr}
JOBS=${1:-200}
RATE=${2:-0.5}
SEED=${3:-1}
OUT=${OUT:-$here/out/live-seed$SEED}
PLACEMENT=${PLACEMENT:-pull}
read -r -a master_args <<<"${MASTER_ARGS:-}"
if [[ $PLACEMENT != pull ]]; then master_args+=(--placement "$PLACEMENT"); fi
if [[ ! -x $MR_BIN ]]; then
  echo "live_trace.sh: MR_BIN=$MR_BIN is not an executable (build mr first, or set MR_BIN)" >&2
  exit 2
fi
rm -rf "$OUT"
mkdir -p "$OUT"
pids=()
cleanup() { [[ ${#pids[@]} -eq 0 ]] || kill "${pids[@]}" 2>/dev/null || true; }
trap cleanup EXIT

"$MR_BIN" master --listen 127.0.0.1:0 --state "$OUT/state" --addr-file "$OUT/master.addr" \
  ${master_args[@]+"${master_args[@]}"} >"$OUT/master.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [[ -s $OUT/master.addr ]] && break; sleep 0.1; done
addr=$(cat "$OUT/master.addr")
speeds=(1 0.75 0.5 0.25)
for w in 0 1 2 3; do
  "$MR_BIN" worker --master "$addr" --work-dir "$OUT/w$w" --map-slots 1 --reduce-slots 1 \
    --speed "${speeds[$w]}" --straggler-offset 50ms --straggler-rate 10 --straggler-tail exp \
    --straggler-seed $((SEED * 10 + w)) >"$OUT/w$w.log" 2>&1 &
  pids+=($!)
done
sleep 2

# Exponential gaps of mean 1/RATE, seeded.
python3 - "$JOBS" "$RATE" "$SEED" >"$OUT/gaps" <<'PY'
import random, sys
n, rate, seed = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
r = random.Random(seed)
for _ in range(n):
    print(f"{r.expovariate(rate):.4f}")
PY
submits=()
j=0
while read -r gap; do
  sleep "$gap"
  "$MR_BIN" submit synthetic --master "$addr" --output "$OUT/out/j$j" --maps 4 --map-seconds 0.2 \
    --work sleep --reducers 1 --reduce-seconds 0.01 --map-bytes 1000 --seed "$j" >>"$OUT/submit.log" 2>&1 &
  submits+=($!)
  j=$((j + 1))
done <"$OUT/gaps"
wait "${submits[@]}"
# Wait (up to 60 s) until every job has left the running states.
for _ in $(seq 60); do
  "$MR_BIN" status --master "$addr" >"$OUT/status.txt" 2>&1 || true
  grep -q RUNNING "$OUT/status.txt" || break
  sleep 1
done
"$MR_BIN" model mst-trace --trace "$OUT/state" | tee "$OUT/mst-trace.txt"
"$MR_BIN" model mst-trace --trace "$OUT/state" --json >"$OUT/mst-trace.json"
