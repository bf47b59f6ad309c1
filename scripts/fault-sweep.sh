#!/usr/bin/env bash
# The kill -9 fault sweep (issue 29, item 5; docs/reliability.md, "The fault sweep").
#
#   scripts/fault-sweep.sh [--instants N] [--victims "worker master"] [--job sort|wordcount]
#                          [--mb MB] [--workers W] [--timeout S] [--worker-timeout S]
#                          [--mr BIN] [--netns [--link RATE]] [--keep]
#
# For each of N instants spread evenly over a job's life (its length measured first, by one
# run with no fault), and for each victim kind, runs the job on a fresh cluster and kills
# at that instant with SIGKILL:
#   worker  worker 1 (it stays dead: the job must finish on the others);
#   master  the master, restarted at once on the same --state and port, as docs/reliability.md
#           says (the workers and the waiting `mr run` reconnect on their own).
# Each run is bounded by --timeout (a run still going then is a HANG). Its outcome:
#   exact        mr run exited 0 and the output equals coreutils' (LC_ALL=C sort; for
#                wordcount, tr|sort|uniq -c): nothing lost, nothing duplicated
#   failed-clean mr run exited non-zero naming the cause (its last line is printed)
#   WRONG        mr run exited 0 but the output differs
#   HANG         no outcome within --timeout
# and what the trace shows of the recovery (worker_lost, reexecute, map_recovered counts).
# Prints one table row per run, then the counts; exits 0 only when every run is exact or
# failed-clean. Defaults: 50 instants, both victims, sort of 24 MB on 3 workers, 180 s
# per run, a worker timeout of 4 s (the master's default 10 s only makes each run longer).
# By default the daemons are local processes on loopback (needs no root). --netns runs them
# on scripts/netns-cluster.sh hosts instead (needs root): the master on its host, each
# worker on its own, `mr run` on the client's host, all with a cluster token; --link RATE
# (tc syntax, e.g. 160mbit) shapes the links. The input and output stay on the shared file
# system (the namespaces separate the network only).
set -euo pipefail
trap 'echo "fault-sweep: stopped by a failing command at line $LINENO" >&2' ERR
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
instants=50 victims="worker master" job=sort mb=24 workers=3 run_timeout=180 worker_timeout=4
mr="${MR_BIN:-$here/build/cli/mr}" keep=0 netns=0 link=""
usage() { sed -n '2,32p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
while (($#)); do
  case $1 in
    --instants) instants=${2:?}; shift ;;
    --victims) victims=${2:?}; shift ;;
    --job) job=${2:?}; shift ;;
    --mb) mb=${2:?}; shift ;;
    --workers) workers=${2:?}; shift ;;
    --timeout) run_timeout=${2:?}; shift ;;
    --worker-timeout) worker_timeout=${2:?}; shift ;;
    --mr) mr=${2:?}; shift ;;
    --keep) keep=1 ;;
    --netns) netns=1 ;;
    --link) link=${2:?}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "fault-sweep: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
die() { echo "fault-sweep: $*" >&2; exit 2; }
[[ -x $mr ]] || die "no mr binary at $mr (build it, or pass --mr)"
[[ $instants =~ ^[0-9]+$ && $instants -ge 1 ]] || die "--instants must be a positive number"
[[ $workers =~ ^[0-9]+$ && $workers -ge 2 ]] || die "--workers must be at least 2 (one is killed)"
case $job in sort|wordcount) ;; *) die "--job must be sort or wordcount" ;; esac
for v in $victims; do case $v in worker|master) ;; *) die "unknown victim $v (worker, master)" ;; esac; done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/mr-fault-sweep-XXXXXX")
pids=()
stop_all() {  # the daemons this script started, by pid
  local p
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do { wait "$p" || true; } 2>/dev/null; done  # no "Killed" notices
  pids=()
}
cleanup() {
  stop_all
  [[ -n ${MRN_RUN:-} ]] && "$here/scripts/netns-cluster.sh" down "$MRN_RUN"
  if ((keep)); then echo "kept $scratch" >&2; else rm -rf -- "$scratch"; fi
}
trap cleanup EXIT

# Where each daemon runs: on loopback, or (--netns) each on a host of its own.
in_master=() in_client=() in_worker=() auth=() listen=127.0.0.1:0
if ((netns)); then
  [[ $EUID -eq 0 ]] || die "--netns needs root"
  up=$("$here/scripts/netns-cluster.sh" up "$workers" ${link:+--link "$link"} --dir "$scratch/hosts" --owner $$) ||
    die "netns-cluster.sh up failed"
  eval "$up"
  "$mr" token new "$scratch/token" >/dev/null
  auth=(--token-file "$scratch/token")
  in_master=(ip netns exec "$MRN_MASTER_NS") in_client=(ip netns exec "$MRN_CLIENT_NS")
  read -r -a worker_ns <<<"$MRN_WORKERS"
  read -r -a worker_ip <<<"$MRN_WORKER_IPS"
  listen=$MRN_MASTER_IP:0
elif [[ -n $link ]]; then
  die "--link needs --netns (loopback has no link to shape)"
fi

# The input and the reference output, made once.
input=$scratch/input.txt
if [[ $job == sort ]]; then
  awk -v n=$((mb * 1024 * 1024 / 48)) 'BEGIN { srand(7); for (i = 0; i < n; i++)
    printf "%08x%08x key-%d %s\n", int(rand() * 4294967295), int(rand() * 4294967295), i, "payload-xxxxxxxxxx" }' >"$input"
  LC_ALL=C sort "$input" >"$scratch/expected"
  job_args=(sort --input "$input")
  actual() { cat "$1"/part-r-*; }
else
  awk -v n=$((mb * 1024 * 1024 / 40)) 'BEGIN { srand(7); split("map reduce shuffle tandem queue slot worker master fetch spill", w);
    for (i = 0; i < n; i++) { printf "%s %s%d %s\n", w[1 + int(rand() * 10)], w[1 + int(rand() * 10)], int(rand() * 5000), w[1 + int(rand() * 10)] } }' >"$input"
  tr -cs 'A-Za-z' '\n' <"$input" | LC_ALL=C sort | uniq -c | awk '$2 != "" {print $2 "\t" $1}' | LC_ALL=C sort >"$scratch/expected"
  job_args=(wordcount --input "$input")
  actual() { cat "$1"/part-r-* | LC_ALL=C sort; }
fi

start_master() {  # DIR LISTEN
  "${in_master[@]}" "$mr" master --listen "$2" --state "$1/state" --addr-file "$1/master.addr" \
    --worker-timeout "$worker_timeout" "${auth[@]}" >>"$1/master.log" 2>&1 &
  master_pid=$!
  pids+=("$master_pid")
}

start_cluster() {  # DIR: a master on a free port, then the workers; sets addr, master_pid, worker_pids
  local d=$1 i
  mkdir -p "$d"
  rm -f "$d/master.addr"
  start_master "$d" "$listen"
  for ((i = 0; i < 100; i++)); do [[ -s $d/master.addr ]] && break; sleep 0.1; done
  [[ -s $d/master.addr ]] || die "the master did not start (log: $d/master.log)"
  addr=$(tr -d ' \n' <"$d/master.addr")
  worker_pids=()
  for ((i = 1; i <= workers; i++)); do
    in_worker=() host=()
    ((netns)) && in_worker=(ip netns exec "${worker_ns[i - 1]}") host=(--host "${worker_ip[i - 1]}")
    "${in_worker[@]}" "$mr" worker --master "$addr" "${host[@]}" --work-dir "$d/w$i" --map-slots 2 \
      --reduce-slots 2 "${auth[@]}" >"$d/w$i.log" 2>&1 &
    worker_pids+=($!)
    pids+=($!)
  done
  for ((i = 0; i < 100; i++)); do
    "${in_client[@]}" "$mr" status --master "$addr" "${auth[@]}" 2>/dev/null | grep -q "$workers workers" && return 0
    sleep 0.1
  done
  die "the workers did not register (logs in $d)"
}

submit() {  # DIR: the job in the background, bounded; sets run_pid
  timeout --signal=KILL "$run_timeout" "${in_client[@]}" "$mr" run "${job_args[@]}" --master "$addr" \
    --output "$1/out" --reducers 3 --split-size 1MiB "${auth[@]}" >"$1/run.out" 2>"$1/run.err" &
  run_pid=$!
}

count() { grep -c "\"event\":\"$1\"" "$2" 2>/dev/null || true; }

# The job's length with no fault: the instants are spread over it.
d=$scratch/baseline
start_cluster "$d"
t0=$(date +%s.%N)
submit "$d"
wait "$run_pid" || die "the fault-free run failed: $(tail -1 "$d/run.err")"
length=$(echo "$(date +%s.%N) - $t0" | bc)
cmp -s <(actual "$d/out") "$scratch/expected" || die "the fault-free run's output differs from coreutils'"
stop_all
rm -rf -- "$d"
echo "job: $job of $mb MB on $workers workers; fault-free length ${length} s; $instants instants; victims: $victims"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-4s %-7s %-8s %-13s %-7s %-6s %-6s %-6s %s\n' run victim at_s outcome time_s lost reexec recov note
n=0 bad=0 landed=0
declare -A tally
for victim in $victims; do
  for ((k = 0; k < instants; k++)); do
    n=$((n + 1))
    at=$(echo "scale=2; $length * ($k + 0.5) / $instants" | bc)
    d=$scratch/run-$n
    start_cluster "$d"
    t0=$(date +%s.%N)
    submit "$d"
    sleep "$at"
    note=""
    if kill -0 "$run_pid" 2>/dev/null; then landed=$((landed + 1)); else note="job had ended before the kill"; fi
    if [[ $victim == worker ]]; then
      kill -9 "${worker_pids[0]}" 2>/dev/null || true
    else
      kill -9 "$master_pid" 2>/dev/null || true
      { wait "$master_pid" || true; } 2>/dev/null
      start_master "$d" "$addr"  # same state, same port
    fi
    rc=0
    { wait "$run_pid" || rc=$?; } 2>/dev/null  # (and no "Killed" notice for the victim)
    took=$(echo "$(date +%s.%N) - $t0" | bc)
    trace=$d/out/_trace.jsonl
    [[ -f $trace ]] || trace=$(ls "$d"/state/traces/*.jsonl 2>/dev/null | head -1 || true)
    if [[ $rc -eq 0 ]]; then
      if cmp -s <(actual "$d/out") "$scratch/expected"; then outcome=exact; else outcome=WRONG; fi
    elif [[ $rc -eq 137 || $rc -eq 124 ]]; then
      outcome=HANG
    else
      outcome=failed-clean
      note="${note:+$note; }$(tail -1 "$d/run.err")"
      # A clean failure leaves nothing: the same command must be able to run again.
      [[ -e $d/out ]] && note="$note; LEFT $(cd "$d/out" && ls -A | tr '\n' ' ')in the output directory"
    fi
    [[ $outcome == exact || $outcome == failed-clean ]] || bad=$((bad + 1))
    tally[$victim-$outcome]=$((${tally[$victim-$outcome]:-0} + 1))
    printf '%-4s %-7s %-8s %-13s %-7.1f %-6s %-6s %-6s %s\n' "$n" "$victim" "$at" "$outcome" "$took" \
      "$(count worker_lost "$trace")" "$(count reexecute "$trace")" "$(count map_recovered "$trace")" "$note"
    stop_all
    if [[ $outcome == exact ]] || ((!keep)); then rm -rf -- "$d"; fi
  done
done
echo "summary:"
for key in "${!tally[@]}"; do echo "  $key: ${tally[$key]}"; done | sort
echo "$landed of the $n kills landed while the job ran (the others test nothing: lengthen the job with --mb)"
echo "$((n - bad))/$n runs ended exact or failed cleanly"
((bad == 0))
