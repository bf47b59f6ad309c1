#!/usr/bin/env bash
# Throughput benchmark: mr (embedded local cluster, the defaults a user gets) against
# single-machine peers, alternating run by run.
#
#   bench/throughput.sh [--quick] [--size MIB] [--runs N] [--jobs LIST] [--no-tuned]
#                       [--sort-memory SIZE] [--report-dir DIR] [--no-report] [--no-mpi]
#                       [--no-build] [--keep-data] [--keep-output]
#
#   --quick          64 MiB inputs, 1 run (the bench/check.sh baseline)
#   --size MIB       input size in MiB (default 512); a size other than 512/64 is a "scale"
#                    mode of its own in results.json (e.g. --size 4096 --runs 1 --jobs wordcount,sort)
#   --runs N         runs per command (default 7); the report gives medians with min-max
#   --jobs LIST      comma-separated subset of wordcount,sort,grep (default: all three)
#   --no-tuned       skip the labelled tuned mr variant (--split-size 64MiB, more reducers)
#   --sort-memory S  GNU sort's -S (default 8G; give mr's total buffers for the same-memory run)
#   --report-dir D   where results.json, RESULTS.md and throughput.svg go (default: bench/);
#                    the plot: median time against input size, log-log, over every recorded mode
#   --no-report      print the summary only; write neither results.json nor RESULTS.md
#   --no-mpi         skip the MR-MPI peer
#   --no-build       use the binaries already in the build directory ($MR_BUILD_DIR)
#   --keep-data      keep the generated inputs in bench/data/ (default: delete what this run generated)
#   --keep-output    keep bench/out/ (outputs of every tool but sort, whose outputs are checksummed
#                    and deleted after each run) for inspection
#
# Alternation: run i of every command of a workload happens before run i+1 of any, so
# mr and its peer see the same machine state (page cache, write-back, other load) run by
# run; the order within a round rotates. Each run's wall, user and system time come from
# GNU time (children included: the embedded cluster's workers are mr's children). Outputs
# are checked against the peers (checksums stay on in mr) before anything is reported.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
size_mib=512
runs=""
jobs_list=wordcount,sort,grep
tuned=1
sort_memory=8G
report_dir=$here
write_report=1
use_mpi=1
keep_output=0
keep_data=0
do_build=1
quick=0

usage() { sed -n '2,29p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
while (($#)); do
  case $1 in
    --quick) quick=1 ;;
    --size) size_mib=${2:?--size needs MiB}; shift ;;
    --runs) runs=${2:?--runs needs a number}; shift ;;
    --jobs) jobs_list=${2:?--jobs needs a list}; shift ;;
    --no-tuned) tuned=0 ;;
    --sort-memory) sort_memory=${2:?--sort-memory needs a size}; shift ;;
    --report-dir) report_dir=${2:?--report-dir needs a directory}; shift ;;
    --no-report) write_report=0 ;;
    --no-mpi) use_mpi=0 ;;
    --no-build) do_build=0 ;;
    --keep-data) keep_data=1 ;;
    --keep-output) keep_output=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "throughput.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
if ((quick)); then size_mib=64; : "${runs:=1}"; fi
: "${runs:=7}"
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "throughput.sh: --runs must be a positive integer" >&2; exit 2; }
[[ $size_mib =~ ^[1-9][0-9]*$ ]] || { echo "throughput.sh: --size must be a positive integer (MiB)" >&2; exit 2; }
if ((quick)); then mode=quick; elif ((size_mib == 512)); then mode=full; else mode=size-${size_mib}MiB; fi
want() { [[ ,$jobs_list, == *,$1,* ]]; }
for j in ${jobs_list//,/ }; do
  [[ $j == wordcount || $j == sort || $j == grep ]] || { echo "throughput.sh: unknown job '$j' in --jobs" >&2; exit 2; }
done

# The labelled tuned variant: what earlier rounds measured with (docs/benchmarks.md).
tuned_split=64MiB
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

# --- inputs and scratch ---------------------------------------------------------------------
data=$here/data
mkdir -p "$data"
words=$data/words-${size_mib}MiB.txt
records=$data/records-${size_mib}MiB.txt
# Disk (issue 30), in units of one input (S = size_mib MiB), counted before anything is
# generated. Each sort's output is checksummed and deleted right after its run (`digest`), so
# at most one sort's files exist beside the inputs:
#   sort: the records (S) + the larger of mr's peak and GNU sort's. mr's peak is at the end
#         of its reduces: the map outputs (S) and the output (S): 2S (every worker of mr run's
#         cluster is on the reducer's host, so every run is a link to a map output, no bytes).
#         GNU sort's: its temporaries (S) + its output (S). The words file (S) too when grep
#         runs after sort.
#   word count, grep: the words (S) + small outputs: 1.5S.
# 3 % more for record framing (a map output's varints) and logs. Inputs this run generates
# are deleted after their last workload (the records after sort). mr run's work directory
# and GNU sort's temporaries are under ${TMPDIR:-/tmp}: this assumes the same file system.
need_mib=0
if want wordcount || want grep; then need_mib=$((3 * size_mib / 2)); fi
if want sort; then
  sort_need=$((size_mib + 2 * size_mib))
  if want grep; then sort_need=$((sort_need + size_mib)); fi
  ((sort_need > need_mib)) && need_mib=$sort_need
fi
need_mib=$((need_mib * 103 / 100))
# Inputs kept from an earlier run (--keep-data) already occupy their share.
for f in "$words" "$records"; do
  if [[ -s $f ]]; then need_mib=$((need_mib - $(stat -c %s "$f") / 1048576)); fi
done
free_mib=$(df -Pm "$here" | awk 'NR == 2 { print $4 }')
if [[ -n $free_mib ]] && ((free_mib < need_mib)); then
  die "refusing to start: ${size_mib} MiB inputs need about $need_mib MiB of free disk under $here (inputs, \
the largest tool's map outputs, runs and output; see the Disk comment in $0); $free_mib MiB are free. \
Run one job at a time (--jobs sort, then --jobs wordcount) or free space"
fi
generated=()
out=$here/out/$mode
rm -rf "$out"
mkdir -p "$out"
cleanup() {
  if ((!keep_output)); then rm -rf "$out"; rmdir "$here/out" 2>/dev/null || true; fi
  if ((!keep_data)) && ((${#generated[@]})); then rm -f "${generated[@]}"; fi
}
trap cleanup EXIT
gen() {  # gen KIND FILE ARG
  [[ -s $2 ]] && return 0
  log "generating $2"
  generated+=("$2" "$2.tmp")
  "$GEN" "$1" "$3" "$2.tmp" && mv "$2.tmp" "$2"
}
if want wordcount || want grep; then gen words "$words" "${size_mib}MiB"; fi
if want sort; then gen records "$records" $(((size_mib << 20) / 100)); fi
tsv=$out/times.tsv
: >"$tsv"
: >"$out/commands.tsv"

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

# A workload is a set of commands registered with `cmd NAME PREP CMD...` (PREP: a shell
# snippet run untimed before each run, e.g. removing the output directory), then run by
# `alternate BYTES`: round i runs every command once (order rotated by i), for $runs rounds.
# Rows appended to $tsv: name run wall maxrss_kb tree_rss_kb job_seconds user sys.
# Round 1 also samples the whole process tree's RSS (workers included).
# `then_digest PATH` after a `cmd`: after each of its runs (untimed), the output at PATH (a
# file, or a directory of part files) is checksummed into $out/digest.NAME and deleted, so no
# tool's output is on disk while another runs (a 16 GiB sort's outputs would not fit).
names=(); preps=(); cmdlines=(); posts=()
cmd() {
  local name=$1 prep=$2
  shift 2
  names+=("$name"); preps+=("$prep"); posts+=(":")
  cmdlines+=("$(printf '%q ' "$@")")
}
then_digest() { posts[${#posts[@]} - 1]="digest '${names[${#names[@]} - 1]}' '$1'"; }
digest() {  # digest NAME PATH: appends PATH's md5 to $out/digest.NAME, then removes PATH
  local sum
  if [[ -d $2 ]]; then sum=$(cat "$2"/part-r-* | md5sum); else sum=$(md5sum <"$2"); fi
  echo "${sum%% *}" >>"$out/digest.$1"
  rm -rf "$2"
}
# Succeeds when every run of every named command left the same output digest.
same_digests() {
  local n
  n=$(for name in "$@"; do cat "$out/digest.$name"; done | sort -u | wc -l)
  ((n == 1))
}
run_one() {  # run_one INDEX ROUND
  local k=$1 i=$2 name=${names[$1]} tf=$out/time.${names[$1]} sf=$out/tree.${names[$1]}
  local pid spid tree=- secs user sys rss job
  eval "${preps[$k]}"
  eval "/usr/bin/time -f '%e %U %S %M' -o \"\$tf\" ${cmdlines[$k]}" >"$out/stdout.$name" 2>"$out/stderr.$name" &
  pid=$!
  if ((i == 1)); then sample_tree_rss "$pid" "$sf" & spid=$!; fi
  if ! wait "$pid"; then
    cat "$out/stderr.$name" >&2
    die "$name failed (run $i): ${cmdlines[$k]}"
  fi
  if ((i == 1)); then wait "$spid"; tree=$(cat "$sf"); fi
  eval "${posts[$k]}"
  read -r secs user sys rss < <(tail -n 1 "$tf")
  # mr prints "job-... succeeded in 1.23s": the job alone, without cluster start and stop.
  job=$(sed -n 's/.* succeeded in \([0-9.]*\)s.*/\1/p' "$out/stdout.$name" | head -n 1)
  printf '%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$i" "$secs" "$rss" "$tree" "${job:--}" "$user" "$sys" >>"$tsv"
  log "$name run $i: wall ${secs}s, user ${user}s, sys ${sys}s"
}
alternate() {  # alternate BYTES
  local bytes=$1 i j n=${#names[@]}
  for ((j = 0; j < n; j++)); do
    printf '%s\t%s\t%s\n' "${names[$j]}" "$bytes" "${cmdlines[$j]% }" >>"$out/commands.tsv"
  done
  for ((i = 1; i <= runs; i++)); do
    for ((j = 0; j < n; j++)); do run_one $(((j + i - 1) % n)) "$i"; done
  done
  names=(); preps=(); cmdlines=(); posts=()
}

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
loadavg_start=$(cut -d' ' -f1-3 /proc/loadavg)
log "mode $mode: ${size_mib} MiB inputs, $runs alternating run(s) each, load average $loadavg_start"
checks=()

# --- word count ----------------------------------------------------------------------------
if want wordcount; then
  warm "$words"
  words_bytes=$(stat -c %s "$words")
  cmd wordcount.mr "rm -rf '$out/wc-mr'" "$MR" run wordcount -q --input "$words" --output "$out/wc-mr"
  cmd wordcount.ref ":" "$REF" --threads 2 --output "$out/wc-ref.txt" "$words"
  if ((tuned)); then
    cmd wordcount.mr-tuned "rm -rf '$out/wc-mr-tuned'" \
      "$MR" run wordcount -q --input "$words" --output "$out/wc-mr-tuned" --split-size "$tuned_split" --reducers 2
  fi
  if ((use_mpi)); then
    cmd wordcount.mrmpi ":" mpirun -np 2 --oversubscribe "$MRMPI" --chunk $((64 << 20)) --output "$out/wc-mpi.txt" "$words"
  fi
  alternate "$words_bytes"
  log "checking word counts"
  LC_ALL=C sort "$out"/wc-mr/part-r-* | cmp -s - "$out/wc-ref.txt" || die "mr wordcount output differs from mr_ref_wordcount"
  if ((tuned)); then
    LC_ALL=C sort "$out"/wc-mr-tuned/part-r-* | cmp -s - "$out/wc-ref.txt" || die "mr wordcount (tuned) differs from mr_ref_wordcount"
  fi
  if ((use_mpi)); then cmp -s "$out/wc-mpi.txt" "$out/wc-ref.txt" || die "MR-MPI word counts differ from mr_ref_wordcount"; fi
  read -r wc_distinct wc_total < <(awk -F'\t' '{ n++; s += $2 } END { print n, s }' "$out/wc-ref.txt")
  log "word count outputs identical: $wc_distinct distinct words, $wc_total words"
  peers=mr_ref_wordcount
  if ((use_mpi)); then peers+=" and MR-MPI"; fi
  checks+=("wordcount: $wc_distinct distinct words, $wc_total words; mr's sorted parts cmp-identical to $peers")
  rm -rf "$out/wc-mr" "$out/wc-mr-tuned" "$out"/wc-*.txt
fi

# --- sort ----------------------------------------------------------------------------------
if want sort; then
  warm "$records"
  records_bytes=$(stat -c %s "$records")
  cmd sort.mr "rm -rf '$out/sort-mr'" "$MR" run sort -q --input "$records" --output "$out/sort-mr"
  then_digest "$out/sort-mr"
  cmd sort.coreutils ":" env LC_ALL=C sort -S "$sort_memory" --parallel=2 -o "$out/sort-ref.txt" "$records"
  then_digest "$out/sort-ref.txt"
  sorts=(sort.mr sort.coreutils)
  if ((tuned)); then
    cmd sort.mr-tuned "rm -rf '$out/sort-mr-tuned'" \
      "$MR" run sort -q --input "$records" --output "$out/sort-mr-tuned" --split-size "$tuned_split" --reducers 4
    then_digest "$out/sort-mr-tuned"
    sorts+=(sort.mr-tuned)
  fi
  alternate "$records_bytes"
  log "checking sort"
  same_digests "${sorts[@]}" || die "mr sort output differs from LC_ALL=C sort (md5 of every run: $out/digest.sort.*)"
  checks+=("sort: every run's concatenated parts (mr) and output (LC_ALL=C sort) have the same md5")
  # The records are not needed again: a generated input goes now, not at exit.
  if ((!keep_data)) && [[ " ${generated[*]} " == *" $records "* ]]; then rm -f "$records"; fi
fi

# --- grep ----------------------------------------------------------------------------------
if want grep; then
  warm "$words"
  words_bytes=$(stat -c %s "$words")
  for kind in literal regex; do
    if [[ $kind == literal ]]; then pat=$grep_literal; else pat=$grep_regex; fi
    cmd "grep-$kind.mr" "rm -rf '$out/grep-mr'" \
      "$MR" run grep -q --pattern "$pat" --input "$words" --output "$out/grep-mr"
    cmd "grep-$kind.grep" ":" env LC_ALL=C grep -E -e "$pat" "$words"
    alternate "$words_bytes"
    mr_count=$(cat "$out"/grep-mr/part-r-* | wc -l)
    cat "$out"/grep-mr/part-r-* | cut -f2- | cmp -s - "$out/stdout.grep-$kind.grep" \
      || die "grep $kind: mr's lines differ from grep -E"
    log "grep $kind: $mr_count matching lines, identical to grep -E"
    checks+=("grep $kind: $mr_count lines; mr's lines (cut -f2-) identical to grep -E")
    rm -rf "$out/grep-mr"
  done
fi
loadavg_end=$(cut -d' ' -f1-3 /proc/loadavg)

# --- report --------------------------------------------------------------------------------
reproduce="bench/throughput.sh"
if ((quick)); then reproduce+=" --quick"; elif ((size_mib != 512)); then reproduce+=" --size $size_mib"; fi
reproduce+=" --runs $runs"
if [[ $jobs_list != wordcount,sort,grep ]]; then reproduce+=" --jobs $jobs_list"; fi
if ((!tuned)); then reproduce+=" --no-tuned"; fi
if [[ $sort_memory != 8G ]]; then reproduce+=" --sort-memory $sort_memory"; fi
if ((!use_mpi)); then reproduce+=" --no-mpi"; fi
report_args=(--mode "$mode" --times "$tsv" --commands "$out/commands.tsv" --runs "$runs" --size-mib "$size_mib"
  --setting "mr=the CLI defaults (mr run JOB --input --output)"
  --setting "mr-tuned=--split-size $tuned_split, --reducers 2 (wordcount) / 4 (sort)"
  --setting "sort_memory=$sort_memory" --setting "grep_literal=$grep_literal" --setting "grep_regex=$grep_regex"
  --setting "workers=$nprocs (mr run default: one per core)" --setting "order=alternating, rotated each round"
  --loadavg "$loadavg_start" --loadavg "$loadavg_end"
  --reproduce "$reproduce")
for c in "${checks[@]}"; do report_args+=(--check "$c"); done
python3 "$here/report.py" summary --times "$tsv" --commands "$out/commands.tsv"
if ((write_report)); then
  mkdir -p "$report_dir"
  python3 "$here/report.py" record --json "$report_dir/results.json" --markdown "$report_dir/RESULTS.md" "${report_args[@]}"
  log "wrote $report_dir/results.json and $report_dir/RESULTS.md"
  if command -v gnuplot >/dev/null; then
    python3 "$here/report.py" plot --json "$report_dir/results.json" --output "$report_dir/throughput.svg" || true
  else
    log "gnuplot not installed: no $report_dir/throughput.svg"
  fi
fi
