#!/usr/bin/env bash
# Throughput benchmark: mr (embedded local cluster) against single-machine peers.
#
#   bench/throughput.sh [--quick] [--runs N] [--report-dir DIR] [--no-mpi] [--no-build] [--keep-output]
#
#   --quick          64 MiB inputs and 1 run (default: 512 MiB inputs, 3 runs)
#   --runs N         timed runs per command; the report gives the median
#   --report-dir D   where results.json and RESULTS.md go (default: bench/); results.json
#                    keeps one section per mode ("full", "quick"), RESULTS.md shows both
#   --no-mpi         skip the MR-MPI peer
#   --no-build       use the binaries already in the build directory
#   --keep-output    keep bench/out/ (outputs of every tool) for inspection
#
# Inputs are generated once into bench/data/ (gitignored) by mr_gen_data. The project is
# built in Release into $MR_BUILD_DIR (default build-bench/). Every command runs with a warm
# page cache. Outputs are checked against the peers before anything is reported.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
mode=full
runs=""
report_dir=$here
use_mpi=1
keep_output=0
do_build=1

usage() { sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
while (($#)); do
  case $1 in
    --quick) mode=quick ;;
    --runs) runs=${2:?--runs needs a number}; shift ;;
    --report-dir) report_dir=${2:?--report-dir needs a directory}; shift ;;
    --no-mpi) use_mpi=0 ;;
    --no-build) do_build=0 ;;
    --keep-output) keep_output=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "throughput.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
if [[ $mode == quick ]]; then size_mib=64; : "${runs:=1}"; else size_mib=512; : "${runs:=3}"; fi
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "throughput.sh: --runs must be a positive integer" >&2; exit 2; }

# Settings a user would pick for inputs of this size on a small machine (see docs/benchmarks.md).
split_size=64MiB
split_bytes=$((64 << 20))
wc_reducers=2
sort_reducers=4
grep_reducers=2
grep_literal='rdruugp'
grep_regex='[0-9]+th|[a-z]+-[a-z]+[.;]'
nprocs=$(nproc)

log() { printf '[bench %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { echo "throughput.sh: $*" >&2; exit 1; }

# --- dependencies and build ---------------------------------------------------------------
need_install=0
for c in cmake /usr/bin/time python3; do command -v "$c" >/dev/null || need_install=1; done
if ((use_mpi)) && { ! command -v mpirun >/dev/null || [[ ! -e /usr/include/mrmpi/mapreduce.h ]]; }; then
  need_install=1
fi
if ((need_install)); then
  log "missing tools; running MR_INSTALL_BENCH=1 scripts/install-deps.sh"
  MR_INSTALL_BENCH=1 "$root/scripts/install-deps.sh"
fi
command -v /usr/bin/time >/dev/null || die "/usr/bin/time (Debian package 'time') is required"

build_dir=${MR_BUILD_DIR:-$root/build-bench}
if ((do_build)); then
  log "building Release in $build_dir"
  build_log=$(mktemp "${TMPDIR:-/tmp}/mr-bench-build.XXXXXX")
  cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DMR_BUILD_TESTS=OFF -DMR_BUILD_BENCH=ON \
    >"$build_log" 2>&1 || { tail -n 30 "$build_log" >&2; die "cmake configure failed (log: $build_log)"; }
  targets=(mr mr_gen_data mr_ref_wordcount)
  if ((use_mpi)); then
    target_list=$(cmake --build "$build_dir" --target help)
    if [[ $target_list == *mr_mrmpi_wordcount* ]]; then targets+=(mr_mrmpi_wordcount); fi
  fi
  cmake --build "$build_dir" -j"$nprocs" --target "${targets[@]}" >>"$build_log" 2>&1 \
    || { grep -E -m 10 'error' "$build_log" >&2; die "build failed (log: $build_log)"; }
  rm -f "$build_log"
fi
MR=$build_dir/cli/mr
GEN=$build_dir/bench/mr_gen_data
REF=$build_dir/bench/mr_ref_wordcount
MRMPI=$build_dir/bench/mr_mrmpi_wordcount
for b in "$MR" "$GEN" "$REF"; do [[ -x $b ]] || die "$b was not built"; done
if ((use_mpi)) && [[ ! -x $MRMPI ]]; then
  log "mr_mrmpi_wordcount not built (MR-MPI or MPI not found by CMake); skipping the MR-MPI peer"
  use_mpi=0
fi

# --- inputs --------------------------------------------------------------------------------
data=$here/data
mkdir -p "$data"
words=$data/words-${size_mib}MiB.txt
records=$data/records-${size_mib}MiB.txt
if [[ ! -s $words ]]; then
  log "generating $words"
  "$GEN" words "${size_mib}MiB" "$words.tmp" && mv "$words.tmp" "$words"
fi
if [[ ! -s $records ]]; then
  log "generating $records"
  "$GEN" records $(((size_mib << 20) / 100)) "$records.tmp" && mv "$records.tmp" "$records"
fi
words_bytes=$(stat -c %s "$words")
records_bytes=$(stat -c %s "$records")

out=$here/out/$mode
rm -rf "$out"
mkdir -p "$out"
tsv=$out/times.tsv
: >"$tsv"
cleanup() { if ((!keep_output)); then rm -rf "$out"; fi; }
trap cleanup EXIT

warm() { cat "$@" >/dev/null; }

# Sums the RSS (KiB) of process $1 and all its descendants.
tree_rss_kb() {
  ps -e -o pid=,ppid=,rss= | awk -v root="$1" '
    { parent[$1] = $2; rss[$1] = $3 }
    END {
      inside[root] = 1; changed = 1
      while (changed) {
        changed = 0
        for (p in parent) if (!(p in inside) && (parent[p] in inside)) { inside[p] = 1; changed = 1 }
      }
      for (p in inside) sum += rss[p]
      print sum + 0
    }'
}

# Polls the process tree of $1 every 0.2 s until it exits; writes the peak sum to $2.
sample_tree_rss() {
  local pid=$1 dest=$2 peak=0 cur
  while kill -0 "$pid" 2>/dev/null; do
    cur=$(tree_rss_kb "$pid")
    ((cur > peak)) && peak=$cur
    sleep 0.2
  done
  echo "$peak" >"$dest"
}

# Shell-quotes an argument only when it needs it, for readable command lines in the report.
show_args() {
  local a s=""
  for a in "$@"; do
    if [[ $a =~ ^[A-Za-z0-9_./=:,+@%-]+$ ]]; then s+="$a "; else s+="'${a//\'/\'\\\'\'}' "; fi
  done
  printf '%s' "${s% }"
}

# timed NAME BYTES PREP CMD...: runs CMD $runs times (PREP, a shell snippet, before each
# run, untimed), appends "name run seconds maxrss_kb tree_rss_kb job_seconds" rows to $tsv. The first
# run also samples the whole process tree's RSS (workers included).
timed() {
  local name=$1 bytes=$2 prep=$3
  shift 3
  local i tf=$out/time.$name sf=$out/tree.$name pid spid tree secs rss job
  printf '%s\t%s\t%s\n' "$name" "$bytes" "$(show_args "$@")" >>"$out/commands.tsv"
  for ((i = 1; i <= runs; i++)); do
    eval "$prep"
    /usr/bin/time -f '%e %M' -o "$tf" "$@" >"$out/stdout.$name" 2>"$out/stderr.$name" &
    pid=$!
    tree=-
    if ((i == 1)); then
      sample_tree_rss "$pid" "$sf" &
      spid=$!
    fi
    if ! wait "$pid"; then
      cat "$out/stderr.$name" >&2
      die "$name failed (run $i): $*"
    fi
    if ((i == 1)); then wait "$spid"; tree=$(cat "$sf"); fi
    read -r secs rss <"$tf"
    # mr prints "job-... succeeded in 1.23s": the job alone, without cluster start and stop.
    job=$(sed -n 's/.* succeeded in \([0-9.]*\)s.*/\1/p' "$out/stdout.$name" | head -n 1)
    printf '%s\t%d\t%s\t%s\t%s\t%s\n' "$name" "$i" "$secs" "$rss" "$tree" "${job:--}" >>"$tsv"
    log "$name run $i: ${secs}s"
  done
}

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
loadavg_start=$(cut -d' ' -f1-3 /proc/loadavg)
log "mode $mode: ${size_mib} MiB inputs, $runs run(s) each, load average $loadavg_start"

# --- word count ----------------------------------------------------------------------------
warm "$words"
timed wordcount.mr "$words_bytes" "rm -rf '$out/wc-mr'" \
  "$MR" run wordcount -q --input "$words" --output "$out/wc-mr" --split-size "$split_size" --reducers "$wc_reducers"
timed wordcount.mr-defaults "$words_bytes" "rm -rf '$out/wc-mr-def'" \
  "$MR" run wordcount -q --input "$words" --output "$out/wc-mr-def"
# shellcheck disable=SC2016  # $1/$2 expand in the inner shell
timed wordcount.tr-sort-uniq "$words_bytes" ":" \
  bash -c 'LC_ALL=C tr -cs "A-Za-z" "\n" <"$1" | LC_ALL=C sort | LC_ALL=C uniq -c >"$2"' _ "$words" "$out/wc-tr.txt"
timed wordcount.ref "$words_bytes" ":" "$REF" --threads 2 --output "$out/wc-ref.txt" "$words"
if ((use_mpi)); then
  timed wordcount.mrmpi "$words_bytes" ":" \
    mpirun -np 2 --oversubscribe "$MRMPI" --chunk "$split_bytes" --output "$out/wc-mpi.txt" "$words"
fi

log "checking word counts"
LC_ALL=C sort "$out"/wc-mr/part-r-* >"$out/wc-mr.sorted"
cmp -s "$out/wc-mr.sorted" "$out/wc-ref.txt" || die "mr wordcount output differs from mr_ref_wordcount"
LC_ALL=C sort "$out"/wc-mr-def/part-r-* | cmp -s - "$out/wc-ref.txt" || die "mr wordcount (defaults) differs from mr_ref_wordcount"
awk 'NF == 2 { printf "%s\t%s\n", $2, $1 }' "$out/wc-tr.txt" | cmp -s - "$out/wc-ref.txt" \
  || die "tr|sort|uniq -c word counts differ from mr_ref_wordcount"
if ((use_mpi)); then cmp -s "$out/wc-mpi.txt" "$out/wc-ref.txt" || die "MR-MPI word counts differ from mr_ref_wordcount"; fi
read -r wc_distinct wc_total < <(awk -F'\t' '{ n++; s += $2 } END { print n, s }' "$out/wc-ref.txt")
log "word count outputs identical: $wc_distinct distinct words, $wc_total words"
rm -rf "$out/wc-mr" "$out/wc-mr-def" "$out"/wc-*.txt "$out/wc-mr.sorted"

# --- sort ----------------------------------------------------------------------------------
warm "$records"
timed sort.mr "$records_bytes" "rm -rf '$out/sort-mr'" \
  "$MR" run sort -q --input "$records" --output "$out/sort-mr" --split-size "$split_size" --reducers "$sort_reducers"
timed sort.coreutils "$records_bytes" ":" \
  env LC_ALL=C sort --parallel=2 -S 1G -o "$out/sort-ref.txt" "$records"
log "checking sort"
cat "$out"/sort-mr/part-r-* | cmp -s - "$out/sort-ref.txt" || die "mr sort output differs from LC_ALL=C sort"
rm -rf "$out/sort-mr" "$out/sort-ref.txt"

# --- grep ----------------------------------------------------------------------------------
warm "$words"
grep_counts=()
for kind in literal regex; do
  if [[ $kind == literal ]]; then pat=$grep_literal; else pat=$grep_regex; fi
  timed "grep-$kind.mr" "$words_bytes" "rm -rf '$out/grep-mr'" \
    "$MR" run grep -q --pattern "$pat" --input "$words" --output "$out/grep-mr" --split-size "$split_size" \
    --reducers "$grep_reducers"
  timed "grep-$kind.grep-c" "$words_bytes" ":" env LC_ALL=C grep -c -E -e "$pat" "$words"
  mr_count=$(cat "$out"/grep-mr/part-r-* | wc -l)
  grep_count=$(cat "$out/stdout.grep-$kind.grep-c")
  ((mr_count == grep_count)) || die "grep $kind: mr found $mr_count lines, grep -c $grep_count"
  cat "$out"/grep-mr/part-r-* | cut -f2- | cmp -s - <(LC_ALL=C grep -E -e "$pat" "$words") \
    || die "grep $kind: mr's lines differ from grep -E"
  log "grep $kind: $mr_count matching lines, identical to grep -E"
  grep_counts+=("$kind=$mr_count")
  rm -rf "$out/grep-mr"
done
loadavg_end=$(cut -d' ' -f1-3 /proc/loadavg)

# --- report --------------------------------------------------------------------------------
mkdir -p "$report_dir"
python3 "$here/report.py" record \
  --json "$report_dir/results.json" --markdown "$report_dir/RESULTS.md" \
  --mode "$mode" --times "$tsv" --commands "$out/commands.tsv" --runs "$runs" --size-mib "$size_mib" \
  --setting "split_size=$split_size" --setting "wordcount_reducers=$wc_reducers" \
  --setting "sort_reducers=$sort_reducers" --setting "grep_reducers=$grep_reducers" \
  --setting "grep_literal=$grep_literal" --setting "grep_regex=$grep_regex" \
  --setting "workers=$nprocs (mr run default: one per core)" \
  --check "wordcount: $wc_distinct distinct words, $wc_total words; mr, tr|sort|uniq, ref$( ((use_mpi)) && echo ', MR-MPI') outputs identical" \
  --check "sort: mr's concatenated parts cmp-identical to LC_ALL=C sort" \
  --check "grep: mr lines (cut -f2-) identical to grep -E; counts ${grep_counts[*]}" \
  --loadavg "$loadavg_start" --loadavg "$loadavg_end" \
  --reproduce "bench/throughput.sh$([[ $mode == quick ]] && echo ' --quick') --runs $runs"
log "wrote $report_dir/results.json and $report_dir/RESULTS.md"
