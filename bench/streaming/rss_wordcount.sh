#!/usr/bin/env bash
# A streaming word count over one split of each size, run through `mr hadoop jar` (Hadoop's
# command line, Hadoop's splits: -D mapreduce.job.maps=1 and a block size above the input
# make the whole file one split), sampling the resident memory of the worker processes (the
# map task and its collector run there) and of the mapper program every 0.1 s. The map-side
# sort buffer is 32 MiB (-D mapreduce.task.io.sort.mb=32), so every size spills; the combiner
# sums each spill (as word counts on Hadoop do), so the reduce side, which runs in the same
# worker processes, stays small and the peak is the map's. The claim
# (issue 27): the peak RSS does not grow with the split. Prints one line per size:
#   split_bytes  worker_peak_rss_kib  mapper_peak_rss_kib  seconds
# and, last, the ratio of the largest split's worker peak to the smallest's.
#
# Usage: bench/streaming/rss_wordcount.sh [--sizes "64M 1G"] [--mr PATH] [--dir DIR]
#   defaults: sizes "256M 1G" (the issue's 1 GiB split), mr = build/cli/mr, dir = a new
#   directory under ${TMPDIR:-/tmp}. Everything it generates is deleted when it ends.
# Not a timed benchmark: the seconds are printed for context only. Run it in a quiet window
# (the lead's commands are in docs/streaming.md's report).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
mr="$here/../../build/cli/mr"
sizes="256M 1G"
base="${TMPDIR:-/tmp}"
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) sizes="$2"; shift 2 ;;
    --mr) mr="$2"; shift 2 ;;
    --dir) base="$2"; shift 2 ;;
    *) echo "rss_wordcount.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
mr=$(cd "$(dirname "$mr")" && pwd)/$(basename "$mr")
[ -x "$mr" ] || { echo "rss_wordcount.sh: no mr binary at $mr" >&2; exit 2; }
work=$(mktemp -d "$base/mr-streaming-rss.XXXXXX")
sampler=""
cleanup() {
  [ -n "$sampler" ] && kill "$sampler" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

bytes_of() {  # 64M -> 67108864
  numfmt --from=iec "$1"
}

# Lines of words from a fixed vocabulary (deterministic), up to exactly N bytes.
generate() {
  local n=$1 out=$2
  awk -v seed=27 'BEGIN { srand(seed); for (i = 0; i < 5000; i++) w[i] = sprintf("w%x", int(rand() * 1e9));
                          for (;;) { l = ""; for (j = 0; j < 12; j++) l = l w[int(rand() * 5000)] " "; print l } }' |
    head -c "$n" > "$out" || true  # awk ends on SIGPIPE once head has its bytes
  [ "$(stat -c %s "$out")" = "$n" ] || { echo "rss_wordcount.sh: could not generate $n bytes" >&2; exit 1; }
}

# Max VmRSS (KiB) of the job's worker processes (children of mr, pid $2) and of
# its mapper program (awk with NF in its program, working under $1), until pid $2 ends.
sample() {
  local pattern=$1 watch=$2 out=$3 max_worker=0 max_mapper=0 p rss
  while kill -0 "$watch" 2>/dev/null; do
    # The workers: children of mr ($2) running a shuffle server (its accept thread's name),
    # whether exec'd or forked without exec (then their command line is mr's own).
    for p in $(pgrep -P "$watch" || true); do
      grep -qx mr-shuf-accept /proc/"$p"/task/*/comm 2>/dev/null || continue
      rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$p/status" 2>/dev/null || true)
      [ -n "$rss" ] && [ "$rss" -gt "$max_worker" ] && max_worker=$rss
    done
    for p in $(pgrep -f -- "awk.*NF" || true); do
      case "$(readlink "/proc/$p/cwd" 2>/dev/null || true)" in "$pattern"*) ;; *) continue ;; esac
      rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$p/status" 2>/dev/null || true)
      [ -n "$rss" ] && [ "$rss" -gt "$max_mapper" ] && max_mapper=$rss
    done
    echo "$max_worker $max_mapper" > "$out"
    sleep 0.1
  done
}

first="" last=""
for size in $sizes; do
  n=$(bytes_of "$size")
  run="$work/$size"
  mkdir -p "$run/tmp"
  generate "$n" "$run/in.txt"
  start=$(date +%s.%N)
  # The job's embedded cluster lives under TMPDIR=$run/tmp: its processes mention $run.
  ( cd "$run" && TMPDIR="$run/tmp" MR_MASTER= MR_HDFS_ROOT="$run/hdfs" exec "$mr" hadoop jar hadoop-streaming.jar \
      -D mapreduce.job.maps=1 -D dfs.blocksize=4g -D mapreduce.job.reduces=1 -D mapreduce.task.io.sort.mb=32 \
      -input in.txt -output out \
      -mapper "awk '{for (i = 1; i <= NF; i++) print \$i \"\\t1\"}'" \
      -combiner "awk -F '\\t' '\$1 != k {if (NR > 1) print k \"\\t\" n; k = \$1; n = 0} {n += \$2} END {if (NR > 0) print k \"\\t\" n}'" \
      -reducer "awk -F '\\t' '{c[\$1] += \$2} END {for (w in c) print w \"\\t\" c[w]}'" \
      > "$run/log" 2>&1 ) &
  job=$!
  sample "$run" "$job" "$run/rss" &
  sampler=$!
  rc=0
  wait "$job" || rc=$?
  wait "$sampler" 2>/dev/null || true
  sampler=""
  end=$(date +%s.%N)
  if [ "$rc" -ne 0 ]; then
    echo "rss_wordcount.sh: the $size job failed (exit $rc):" >&2
    tail -20 "$run/log" >&2
    exit 1
  fi
  maps=$(grep -oE '[0-9]+ maps?' "$run/log" | head -1 || true)
  [ "$maps" = "1 map" ] || { echo "rss_wordcount.sh: expected one split, got: $maps" >&2; exit 1; }
  words=$(awk -F '\t' '{s += $2} END {print s}' "$run/out"/part-*)
  want=$(wc -w < "$run/in.txt")
  [ "$words" = "$want" ] || { echo "rss_wordcount.sh: counted $words words of $want" >&2; exit 1; }
  read -r worker mapper < "$run/rss"
  printf '%s\t%s\t%s\t%.1f\n' "$n" "$worker" "$mapper" "$(echo "$end - $start" | bc)"
  [ -z "$first" ] && first=$worker
  last=$worker
  rm -rf "$run"
done
[ "$first" -gt 0 ] || { echo "rss_wordcount.sh: no worker was sampled (the job ended too soon?)" >&2; exit 1; }
printf 'worker peak RSS, largest split / smallest: %.2f\n' "$(echo "$last / $first" | bc -l)"
