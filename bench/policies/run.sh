#!/usr/bin/env bash
# Real-cluster policy experiment (issue 3, item 6): one seeded workload of synthetic jobs
# with Poisson arrivals, played against a local 3-worker cluster once per policy, then
# compared with the tandem-queue model. What and why: docs/policy-experiment.md.
#
#   bench/policies/run.sh [--quick] [--policies "klps fair fifo maxsrpt splitsrpt"]
#                         [--jobs N] [--seed S] [--load RHO] [--no-build] [--keep-scratch]
#
#   --quick         10 small jobs per policy, ~1 min each (default: 40 jobs, ~4-5 min each)
#   --policies      which policies to run, in this order (default: all five)
#   --jobs/--seed/--load   workload knobs (defaults 40 or 10 / 1 / 0.6)
#   --no-build      use $MR_BIN (default build-experiment/cli/mr) as it is
#   --keep-scratch  keep the cluster directories (map outputs, logs, RocksDB) for inspection
#
# Cluster: `mr cluster start --workers 3 --map-slots 1 --reduce-slots 2
# --shuffle-bandwidth 20MB/s` (both stations are bottlenecks; calibration in the doc).
# Raw data (traces, status, CPU monitor) goes to bench/policies/out/MODE/ (gitignored);
# the analysis to bench/policies/results/MODE/ and, for the full run, to the
# "Policy experiment (issue 3)" section of bench/RESULTS.md.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=full
policies="klps fair fifo maxsrpt splitsrpt"
jobs=""
seed=1
load=0.6
do_build=1
keep_scratch=0
# Cluster shape: see docs/policy-experiment.md "Calibration" before changing these.
workers=3
map_slots=1
reduce_slots=2
bandwidth=20MB/s

usage() { sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
while (($#)); do
  case $1 in
    --quick) mode=quick ;;
    --policies) policies=${2:?--policies needs a list}; shift ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift ;;
    --seed) seed=${2:?--seed needs a number}; shift ;;
    --load) load=${2:?--load needs a number}; shift ;;
    --no-build) do_build=0 ;;
    --keep-scratch) keep_scratch=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
if [[ $mode == quick ]]; then : "${jobs:=10}"; timeout=240; else : "${jobs:=40}"; timeout=900; fi
for p in $policies; do
  case $p in klps|fair|fifo|maxsrpt|splitsrpt) ;; *) echo "run.sh: unknown policy $p" >&2; exit 2 ;; esac
done

log() { printf '[policies %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { echo "run.sh: $*" >&2; exit 1; }

build_dir=${MR_BUILD_DIR:-$root/build-experiment}
MR_BIN=${MR_BIN:-$build_dir/cli/mr}
if ((do_build)); then
  log "building mr in $build_dir (-j2)"
  cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMR_WERROR=ON >/dev/null
  cmake --build "$build_dir" -j2 --target mr >/dev/null
fi
[[ -x $MR_BIN ]] || die "MR_BIN=$MR_BIN is not an executable (build it, or set MR_BIN)"
command -v python3 >/dev/null || die "python3 is needed"

out=$here/out/$mode
results=$here/results/$mode
scratch=$(mktemp -d "${TMPDIR:-/tmp}/mr-policies.XXXXXX")
cluster=""
cleanup() {
  if [[ -n $cluster && -f $cluster/master.pid ]]; then "$MR_BIN" cluster stop --dir "$cluster" >/dev/null 2>&1 || true; fi
  if ((!keep_scratch)); then rm -rf "$scratch"; else log "scratch kept in $scratch"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

rm -rf "$out"
mkdir -p "$out" "$results"
quick_flag=""
[[ $mode == quick ]] && quick_flag=--quick
python3 "$here/workload.py" --jobs "$jobs" --seed "$seed" --load "$load" $quick_flag \
  --out "$out/workload.json" --csv "$out/nominal.csv"
{
  echo "mode=$mode jobs=$jobs seed=$seed load=$load policies=$policies"
  echo "cluster: workers=$workers map_slots=$map_slots reduce_slots=$reduce_slots shuffle_bandwidth=$bandwidth"
  echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "machine: $(nproc) CPUs, $(uname -r)"
  echo "started: $(date -u +%FT%TZ); loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/run-info.txt"

for policy in $policies; do
  pdir=$out/$policy
  cluster=$scratch/$policy/cluster
  mkdir -p "$pdir" "$scratch/$policy"
  log "$policy: starting cluster ($workers workers, $map_slots map slot each, $bandwidth shuffle cap each)"
  master=$("$MR_BIN" cluster start --workers "$workers" --dir "$cluster" --policy "$policy" \
    --map-slots "$map_slots" --reduce-slots "$reduce_slots" --shuffle-bandwidth "$bandwidth" 2>/dev/null) \
    || die "$policy: mr cluster start failed (logs in $cluster)"
  rc=0
  python3 "$here/driver.py" --mr "$MR_BIN" --master "$master" --cluster-dir "$cluster" \
    --workload "$out/workload.json" --outputs "$scratch/$policy/outputs" --out "$pdir" \
    --timeout "$timeout" 2> >(tee "$pdir/driver.log" | grep -v 'submitted' >&2) || rc=$?
  "$MR_BIN" cluster stop --dir "$cluster" >/dev/null 2>&1 || log "$policy: cluster stop reported an error"
  # Traces: the master's copy of every job, and the copy each finished job left in its output.
  mkdir -p "$pdir/traces" "$pdir/output-traces" "$pdir/logs"
  cp "$cluster"/state/traces/*.jsonl "$pdir/traces/" 2>/dev/null || true
  for t in "$scratch/$policy"/outputs/*/_trace.jsonl; do
    [[ -f $t ]] && cp "$t" "$pdir/output-traces/$(basename "$(dirname "$t")").jsonl"
  done
  cp "$cluster"/*.log "$pdir/logs/" 2>/dev/null || true
  cluster=""
  [[ $rc -eq 0 ]] || log "$policy: driver exit status $rc (see $pdir/driver.log); analysing what finished"
  ((keep_scratch)) || rm -rf "$scratch/$policy"
done
echo "ended: $(date -u +%FT%TZ); loadavg $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/run-info.txt"

report=()
[[ $mode == full ]] && report=(--results-md "$root/bench/RESULTS.md")
python3 "$here/analyze.py" --mr "$MR_BIN" --run "$out" --results "$results" "${report[@]}"
log "done: $results/summary.md"
