#!/usr/bin/env bash
# Grades the policy lab (docs/labs/policy-lab.md): builds lab_policy.cc (or --source FILE) as
# a plug-in against the installed mrlab, runs it in the task-level simulator and on a local
# cluster, and prints each check, then "score: N/15". Exit 0 when every check passed.
#
# Usage: grade.sh [--source FILE] [--prefix MRLAB_PREFIX] [--work DIR]
#   --prefix: where mrlab is installed (default: the prefix of the `mr` on PATH)
#   --work:   scratch directory (default: a new temporary one, removed at the end)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_file=$here/lab_policy.cc
prefix=""
work=""
while (($#)); do
  case $1 in
    --source) source_file=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    --prefix) prefix=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    *) echo "usage: grade.sh [--source FILE] [--prefix MRLAB_PREFIX] [--work DIR]" >&2; exit 2 ;;
  esac
done
if [[ -z $prefix ]]; then
  mr_on_path=$(command -v mr) || { echo "grade: no mr on PATH; give --prefix" >&2; exit 2; }
  prefix=$(cd "$(dirname "$mr_on_path")/.." && pwd)
fi
mr=$prefix/bin/mr
if [[ -z $work ]]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
score=0 total=0
check() {  # check POINTS NAME RESULT(0 = pass) [why]
  total=$((total + $1))
  if [[ $3 == 0 ]]; then score=$((score + $1)); printf '  PASS %-52s %d/%d\n' "$2" "$1" "$1"
  else printf '  FAIL %-52s 0/%d  %s\n' "$2" "$1" "${4:-}"; fi
}

echo "building $source_file against $prefix"
if ! { cmake -S "$here" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" -DLAB_SOURCE="$source_file" \
         -DCMAKE_BUILD_TYPE=Release && cmake --build "$work/build"; } >"$work/build.log" 2>&1; then
  tail -20 "$work/build.log"; echo "score: 0/15 (it does not build)"; exit 1
fi
lib=$work/build/liblab_policy.so
plugin=(--policy-plugin "$lib")

# --- In the simulator: 2 workers with 2 map slots and 1 reduce slot each.
sim() {  # sim WORKLOAD POLICY... -> the simulator's per-job CSV on stdout
  local workload=$1; shift
  "$mr" model tasksim "${plugin[@]}" --workload "$workload" --workers 2 --map-slots 2 --reduce-slots 1 \
    --shuffle-bandwidth 100MB/s "$@" 2>"$work/sim.err"
}
response() { awk -F, -v j="$2" '$1 == j { print $6 }' <<<"$1"; }  # response of job j
job() {  # job ARRIVAL MAPS WEIGHT -> one job of a bench workload, maps of 1 s each
  printf '{"arrival": %s, "maps": %s, "reducers": 1, "map_bytes": 1000, "hint_map_seconds": %s, "hint_shuffle_bytes": 1000, "weight": %s}' \
    "$1" "$2" "$2" "$3"
}
echo "simulator"
printf '{"job_list": [%s, %s, %s, %s]}\n' "$(job 0 8 1)" "$(job 0.5 4 2)" "$(job 1 6 1)" "$(job 1.5 3 1)" >"$work/mixed.json"
out=$(sim "$work/mixed.json" --policy lab-wfair)
rows=$(grep -c '^[0-9]' <<<"$out")
check 3 "a mixed workload: every job finishes" "$([[ $rows == 4 ]]; echo $?)" "$(tail -1 "$work/sim.err")"

printf '{"job_list": [%s, %s]}\n' "$(job 0 12 1)" "$(job 0 12 3)" >"$work/weights.json"
out=$(sim "$work/weights.json" --policy lab-wfair)
a=$(response "$out" 0) b=$(response "$out" 1)
ok=$(awk -v a="$a" -v b="$b" 'BEGIN { exit !(a != "" && b != "" && b < a) }'; echo $?)
check 3 "weights: the weight-3 job finishes first" "$ok" "weight 1: ${a:-none} s, weight 3: ${b:-none} s"

printf '{"job_list": [%s]}\n' "$(job 0 16 1)" >"$work/one.json"
mine=$(response "$(sim "$work/one.json" --policy lab-wfair)" 0)
fifo=$(response "$(sim "$work/one.json" --policy fifo)" 0)
ok=$(awk -v m="$mine" -v f="$fifo" 'BEGIN { exit !(m != "" && m <= f * 1.001) }'; echo $?)
check 2 "one job alone uses every slot (as fast as fifo)" "$ok" "${mine:-none} s vs fifo's ${fifo} s"

# --- Live, on local clusters (skipped when the policy cannot finish a job simulated).
echo "local cluster"
if [[ $rows != 4 ]]; then
  check 3 "word count: the same output as under fifo" 1 "skipped: jobs do not finish in the simulator"
  check 4 "weights live: the weight-3 job ends first" 1 "skipped"
else
  python3 - "$work/in.txt" <<'PY'
import random, sys
random.seed(7)
words = ["map", "reduce", "slot", "shuffle", "weight", "fair", "queue", "job", "task", "worker"]
with open(sys.argv[1], "w") as f:
    for _ in range(20000):
        f.write(" ".join(random.choice(words) for _ in range(8)) + "\n")
PY
  wc_run() {  # wc_run OUTPUT POLICY...
    local o=$1; shift
    timeout -s INT 120 "$mr" run wordcount --workers 2 --input "$work/in.txt" --output "$o" --split-size 64KiB \
      --reducers 2 --quiet "$@" >/dev/null 2>>"$work/live.err"
  }
  wc_run "$work/wc-fifo" --policy fifo
  wc_run "$work/wc-lab" "${plugin[@]}" --policy lab-wfair
  ok=$( { [[ -f $work/wc-lab/_SUCCESS ]] && cmp -s <("$mr" cat "$work/wc-fifo" | sort) <("$mr" cat "$work/wc-lab" | sort); }; echo $?)
  check 3 "word count: the same output as under fifo" "$ok" "$(tail -1 "$work/live.err" 2>/dev/null)"

  dir=$work/cluster
  if "$mr" cluster start --workers 1 --map-slots 4 --reduce-slots 1 "${plugin[@]}" --policy lab-wfair --dir "$dir" \
       >/dev/null 2>>"$work/live.err"; then
    addr=$(cat "$dir/master.addr")
    submit() {  # submit WEIGHT -> job id
      "$mr" submit synthetic --maps 12 --map-seconds 0.5 --work sleep --reducers 1 --weight "$1" \
        --output "$work/w$1" --master "$addr"
    }
    ida=$(submit 1) && idb=$(submit 3)
    end_of() {  # the job's end time, once it has ended (waits up to 60 s)
      for _ in $(seq 600); do
        local e
        e=$("$mr" status --json "$1" --master "$addr" 2>/dev/null | sed -n 's/^ *"end_time": \([0-9.]*\),*$/\1/p')
        if [[ -n $e && $e != 0* ]]; then echo "$e"; return; fi
        sleep 0.1
      done
    }
    ea=$(end_of "$ida") eb=$(end_of "$idb")
    "$mr" cluster stop --dir "$dir" >/dev/null 2>&1
    ok=$(awk -v a="$ea" -v b="$eb" 'BEGIN { exit !(a != "" && b != "" && b < a) }'; echo $?)
    check 4 "weights live: the weight-3 job ends first" "$ok" "ends: weight 1 at ${ea:-never}, weight 3 at ${eb:-never}"
  else
    check 4 "weights live: the weight-3 job ends first" 1 "the cluster did not start: $(tail -1 "$work/live.err")"
  fi
fi
echo "score: $score/$total"
[[ $score == "$total" ]]
