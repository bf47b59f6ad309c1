#!/usr/bin/env bash
# Cost of end-to-end map-output checksums (issue 11): `mr run sort` and `mr run wordcount`
# (embedded cluster, default flags) timed alternately with binary A (without checksums:
# built from BASE_REF, default the commit this branch started from) and binary B (with
# them: this checkout), RUNS times each. Prints per job the median seconds of A and B, the
# ratio of medians, and the min/max of the per-pair ratios B/A. Deletes what it generates
# (inputs, outputs, the baseline worktree; the baseline build dir is kept if given).
#   bench/checksum/run.sh [--runs N=10] [--mib SIZE=256] [--base-ref REF]
#                         [--mr-a PATH] [--mr-b PATH] [--keep-base-build DIR]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=10
mib=256
base_ref=""
mr_a=""
mr_b=""
base_build=""
while (($#)); do
  case $1 in
    --runs) runs=${2:?}; shift ;;
    --mib) mib=${2:?}; shift ;;
    --base-ref) base_ref=${2:?}; shift ;;
    --mr-a) mr_a=${2:?}; shift ;;
    --mr-b) mr_b=${2:?}; shift ;;
    --keep-base-build) base_build=${2:?}; shift ;;
    -h|--help) sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --runs must be a positive integer" >&2; exit 2; }
log() { printf '[checksum-bench %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mr-checksum-bench.XXXXXX")
base_tree=""
cleanup() {
  rm -rf "$work"
  if [[ -n $base_tree ]]; then git -C "$root" worktree remove --force "$base_tree" >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT

build() {  # src_dir build_dir: Release build of mr and mr_gen_data
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DMR_BUILD_TESTS=OFF -DMR_BUILD_BENCH=ON \
    -DCMAKE_CXX_COMPILER_LAUNCHER="$(command -v ccache || true)" >"$work/build.log" 2>&1
  cmake --build "$2" -j"$(nproc)" --target mr mr_gen_data >>"$work/build.log" 2>&1 \
    || { tail -n 30 "$work/build.log" >&2; exit 1; }
}

if [[ -z $mr_b ]]; then
  log "building B (this checkout, with checksums)"
  build "$root" "$root/build-bench"
  mr_b=$root/build-bench/cli/mr
fi
gen=$(dirname "$(dirname "$mr_b")")/bench/mr_gen_data
if [[ -z $mr_a ]]; then
  : "${base_ref:=$(git -C "$root" merge-base HEAD main)}"
  log "building A (without checksums) from $base_ref"
  base_tree=$work/base-src
  git -C "$root" worktree add --detach "$base_tree" "$base_ref" >/dev/null 2>&1
  : "${base_build:=$work/base-build}"
  build "$base_tree" "$base_build"
  mr_a=$base_build/cli/mr
fi
for b in "$mr_a" "$mr_b" "$gen"; do [[ -x $b ]] || { echo "run.sh: $b missing" >&2; exit 1; }; done

log "generating ${mib} MiB of words and of records"
"$gen" words "${mib}MiB" "$work/words.txt"
"$gen" records $(((mib << 20) / 100)) "$work/records.txt"

# one JOB BIN INPUT: prints the wall seconds of one run; checks the output is complete.
one() {
  local out=$work/out start end
  rm -rf "$out"
  start=$(date +%s.%N)
  "$2" run "$1" -q --input "$3" --output "$out" >"$work/run.log" 2>&1 \
    || { cat "$work/run.log" >&2; exit 1; }
  end=$(date +%s.%N)
  [[ -e $out/_SUCCESS ]] || { echo "run.sh: $1 left no _SUCCESS" >&2; exit 1; }
  echo "$end - $start" | bc -l
}

results=$work/times.tsv
: >"$results"
for job in sort wordcount; do
  input=$work/records.txt
  [[ $job == wordcount ]] && input=$work/words.txt
  cat "$input" >/dev/null
  one "$job" "$mr_b" "$input" >/dev/null  # warm-up, untimed
  for ((i = 1; i <= runs; i++)); do
    # Alternate which goes first, so a drift in machine load hits both alike.
    if ((i % 2)); then a=$(one "$job" "$mr_a" "$input"); b=$(one "$job" "$mr_b" "$input")
    else b=$(one "$job" "$mr_b" "$input"); a=$(one "$job" "$mr_a" "$input"); fi
    printf '%s\t%d\t%s\t%s\n' "$job" "$i" "$a" "$b" | tee -a "$results" >&2
  done
done

python3 - "$results" "$runs" "$mib" <<'PY'
import statistics, sys
rows = [l.split('\t') for l in open(sys.argv[1]).read().split('\n') if l]
print(f"checksum cost, {sys.argv[2]} alternating runs per job, {sys.argv[3]} MiB inputs")
print(f"{'job':<10} {'A median s':>10} {'B median s':>10} {'B/A':>7} {'pair B/A min':>12} {'max':>7}")
for job in ('sort', 'wordcount'):
    a = [float(r[2]) for r in rows if r[0] == job]
    b = [float(r[3]) for r in rows if r[0] == job]
    pairs = [y / x for x, y in zip(a, b)]
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"{job:<10} {ma:>10.2f} {mb:>10.2f} {mb / ma:>7.3f} {min(pairs):>12.3f} {max(pairs):>7.3f}"
          f"   (median pair ratio {statistics.median(pairs):.3f})")
PY
