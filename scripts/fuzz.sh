#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang, ASan and UBSan in a build directory of
# their own, generates a seed corpus, and runs each target for SECONDS. Prints one summary
# line per target and exits 1 if any target found a crash, a leak or undefined behaviour
# (the reproducer is kept and its path printed). The corpus is kept between runs.
#
# Usage: scripts/fuzz.sh [SECONDS]        (default 60 per target)
# Env:   MR_FUZZ_BUILD  build directory   (default build-fuzz)
#        MR_FUZZ_JOBS   parallel compiles (default 2)
#        CXX            clang++ to use    (default: clang++, else clang++-14)
# Reproduce a crash: build-fuzz/fuzz/<target> <crash file>
set -euo pipefail

secs=${1:-60}
if ! [[ "$secs" =~ ^[0-9]+$ ]] || ((secs < 1)); then
  echo "usage: scripts/fuzz.sh [SECONDS]" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MR_FUZZ_BUILD:-$root/build-fuzz}
jobs=${MR_FUZZ_JOBS:-2}
cxx=${CXX:-}
if [[ -z "$cxx" ]]; then cxx=$(command -v clang++ || command -v clang++-14 || true); fi
if [[ -z "$cxx" ]] || ! "$cxx" --version 2>/dev/null | grep -q clang; then
  echo "fuzz: needs clang++ (MR_INSTALL_FUZZ=1 scripts/install-deps.sh)" >&2
  exit 2
fi

targets=(frame_decoder master_messages)
echo "fuzz: building with $cxx in $build" >&2
# Coverage instrumentation for everything the targets link; UB aborts so the fuzzer sees it.
cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMR_FUZZ=ON -DMR_SANITIZE=ON -DMR_BUILD_TESTS=OFF -DMR_BUILD_BENCH=OFF \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link -fno-sanitize-recover=undefined" >/dev/null
cmake --build "$build" -j "$jobs" --target make_seeds "${targets[@]/%/_fuzz}" >"$build/fuzz-build.log" 2>&1 ||
  { tail -30 "$build/fuzz-build.log" >&2; echo "fuzz: build failed (log: $build/fuzz-build.log)" >&2; exit 2; }

work="$build/fuzz-run"
mkdir -p "$work"
touch "$work/.started"  # reproducers newer than this are from this run
"$build/fuzz/make_seeds" "$work/seeds"

# The master target writes traces and output directories per input: on tmpfs it runs ~4x faster.
if [[ -z "${TMPDIR:-}" && -d /dev/shm && -w /dev/shm ]]; then export TMPDIR=/dev/shm; fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
failed=0
for t in "${targets[@]}"; do
  corpus="$work/corpus/$t" artifacts="$work/artifacts/$t/" log="$work/$t.log"
  mkdir -p "$corpus" "$artifacts"
  rc=0
  "$build/fuzz/${t}_fuzz" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts" "$corpus" "$work/seeds/$t" >"$log" 2>&1 || rc=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  cov=$(grep -oE '^#[0-9]+.*cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || echo "cov: ?")
  found=$(find "$artifacts" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) \
          -newer "$work/.started" 2>/dev/null | head -1)
  if ((rc != 0)) || [[ -n "$found" ]]; then
    echo "fuzz: $t: FAILED (exit $rc) ${found:-no reproducer saved}; log $log"
    failed=1
  else
    echo "fuzz: $t: ok, $runs runs in ${secs}s, $cov, corpus $(find "$corpus" -type f | wc -l) inputs"
  fi
done
exit $failed
