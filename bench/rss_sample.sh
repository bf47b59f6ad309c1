#!/usr/bin/env bash
# Samples the memory of a command's process tree: which process, and which kind of memory,
# holds its peak RSS.
#
#   bench/rss_sample.sh [--interval SECONDS] [--samples FILE] -- COMMAND [ARGS...]
#
# Runs COMMAND and, every --interval seconds (default 0.1), reads /proc/PID/smaps_rollup of
# it and every descendant: Rss, Anonymous, the rest (Rss - Anonymous: file mappings and
# shared memory) and, of that, FilePmdMapped (file pages mapped 2 MiB at a time). On exit it
# prints, per process (pid and the first words of its command line), the peak of each and the
# process's peak Rss split as it was at that sample, then the peak of the tree's summed Rss.
# --samples FILE also keeps every sample (seconds since start, pid, rss_kb, anon_kb,
# file_kb, file_pmd_kb, command). A process that lives less
# than one interval may be missed; RSS is a count, so load distorts it less than time, but a
# loaded machine samples less often than asked. Exits with COMMAND's status.
set -euo pipefail

interval=0.1
samples=""
while (($#)); do
  case $1 in
    --interval) interval=${2:?--interval needs seconds}; shift ;;
    --samples) samples=${2:?--samples needs a file}; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
  shift
done
(($#)) || { echo "rss_sample.sh: no command" >&2; exit 2; }

log=$(mktemp "${TMPDIR:-/tmp}/rss-sample.XXXXXX")
trap 'rm -f "$log"' EXIT

# The pids of $1 and its descendants, one a line.
tree() {
  ps -e -o pid=,ppid= | awk -v root="$1" '
    { parent[$1] = $2 }
    END {
      inside[root] = 1; changed = 1
      while (changed) {
        changed = 0
        for (p in parent) if (!(p in inside) && (parent[p] in inside)) { inside[p] = 1; changed = 1 }
      }
      for (p in inside) print p
    }'
}

# One line per live process of the tree: seconds pid rss_kb anon_kb file_kb file_pmd_kb command.
sample() {
  local now=$1 pid rollup cmd
  for pid in $(tree "$2"); do
    rollup=$(cat "/proc/$pid/smaps_rollup" 2>/dev/null) || continue
    cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-60) || continue
    awk -v t="$now" -v pid="$pid" -v cmd="$cmd" '
      $1 == "Rss:" { rss = $2 } $1 == "Anonymous:" { anon = $2 } $1 == "FilePmdMapped:" { pmd = $2 }
      END { if (rss != "") printf "%s\t%s\t%d\t%d\t%d\t%d\t%s\n", t, pid, rss, anon, rss - anon, pmd, cmd }' <<<"$rollup"
  done
}

"$@" &
root=$!
start=$EPOCHREALTIME
while kill -0 "$root" 2>/dev/null; do
  sample "$(awk -v a="$EPOCHREALTIME" -v b="$start" 'BEGIN { printf "%.2f", a - b }')" "$root" >>"$log"
  sleep "$interval"
done
status=0
wait "$root" || status=$?
[[ -n $samples ]] && cp "$log" "$samples"

awk -F'\t' '
  { key = $2; cmd[key] = $7
    if ($3 > rss[key]) { rss[key] = $3; at_anon[key] = $4; at_file[key] = $5 }
    if ($4 > anon[key]) anon[key] = $4
    if ($5 > file[key]) file[key] = $5
    if ($6 > pmd[key]) pmd[key] = $6
    tree_sum[$1] += $3 }
  END {
    printf "%-8s %10s %10s %10s %10s   %-23s %s\n", "pid", "peak_rss", "peak_anon", "peak_file", "(pmd)", "at peak rss: anon/file", "command"
    for (k in rss) printf "%-8s %8.1f M %8.1f M %8.1f M %8.1f M   %8.1f M / %8.1f M  %s\n", k, rss[k] / 1024, anon[k] / 1024, file[k] / 1024, pmd[k] / 1024, at_anon[k] / 1024, at_file[k] / 1024, cmd[k]
    for (t in tree_sum) if (tree_sum[t] > peak) peak = tree_sum[t]
    printf "tree peak rss (summed per sample): %.1f M; %d samples\n", peak / 1024, length(tree_sum)
  }' "$log" >&2
exit "$status"
