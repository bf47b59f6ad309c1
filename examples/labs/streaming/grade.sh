#!/usr/bin/env bash
# Grades the streaming lab (docs/labs/streaming-lab.md) in the style of a systems course's
# MapReduce lab: runs mapper.py and reducer.py (or --dir DIR's) as a Hadoop Streaming job on a
# local mrlab cluster of 2 workers and checks, for 15 points: the output against a reference,
# that maps and reduces ran in parallel, that no task ran twice, that the job's command
# returned only once the job was done, and that a job whose every map crashes once still
# gives the right output. Prints each check and "score: N/15"; exit 0 with the full score.
# Usage: grade.sh [--dir DIR] [--prefix MRLAB_PREFIX] [--work DIR]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$here prefix="" work=""
while (($#)); do
  case $1 in
    --dir) dir=$(cd "$2" && pwd); shift 2 ;;
    --prefix) prefix=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    *) echo "usage: grade.sh [--dir DIR] [--prefix MRLAB_PREFIX] [--work DIR]" >&2; exit 2 ;;
  esac
done
if [[ -z $prefix ]]; then
  mr_on_path=$(command -v mr) || { echo "grade: no mr on PATH; give --prefix" >&2; exit 2; }
  prefix=$(cd "$(dirname "$mr_on_path")/.." && pwd)
fi
mr=$prefix/bin/mr
own_work=""
if [[ -z $work ]]; then work=$(mktemp -d); own_work=1; fi
mkdir -p "$work"
score=0 total=0
check() {  # check POINTS NAME RESULT(0 = pass) [why]
  total=$((total + $1))
  if [[ $3 == 0 ]]; then score=$((score + $1)); printf '  PASS %-52s %d/%d\n' "$2" "$1" "$1"
  else printf '  FAIL %-52s 0/%d  %s\n' "$2" "$1" "${4:-}"; fi
}

# Input: 6 files of text; the reference counts.
mkdir -p "$work/in"
python3 - "$work/in" "$work/reference.txt" <<'PY'
import collections, os, random, sys
random.seed(11)
words = [w + s for w in ["map", "Reduce", "shuffle", "slot", "task", "worker", "job"] for s in ["", "s", "-1", "!"]]
counts = collections.Counter()
for i in range(6):
    with open(os.path.join(sys.argv[1], f"part{i}.txt"), "w") as f:
        for _ in range(4000):
            line = [random.choice(words) for _ in range(random.randint(0, 9))]
            counts.update(line)
            f.write("  ".join(line) + "\n")
with open(sys.argv[2], "w") as f:
    for w in sorted(counts):
        f.write(f"{w}\t{counts[w]}\n")
PY

cluster=$work/cluster
"$mr" cluster start --workers 2 --map-slots 2 --reduce-slots 2 --dir "$cluster" >/dev/null 2>"$work/cluster.err" ||
  { cat "$work/cluster.err"; echo "score: 0/15 (no cluster)"; [[ -z $own_work ]] || rm -rf "$work"; exit 1; }
trap '"$mr" cluster stop --dir "$cluster" >/dev/null 2>&1; [[ -z $own_work ]] || rm -rf "$work"' EXIT
export MR_MASTER=$(cat "$cluster/master.addr")
job() {  # job OUTPUT MAPPER-COMMAND -> runs the streaming job; its exit status
  (cd "$dir" && timeout -s INT 120 "$mr" hadoop jar hadoop-streaming.jar -files mapper.py,reducer.py,"$here/crash.py" \
     -input "$work/in" -output "$1" -mapper "$2" \
     -reducer "python3 reducer.py" -numReduceTasks 3) >"$1.log" 2>&1
}
same_output() { cmp -s <(cat "$1"/part-* 2>/dev/null | sort) "$work/reference.txt"; }

echo "word count"
job "$work/out" "python3 mapper.py"
rc=$?
done_at_exit=$([[ $rc == 0 && -f $work/out/_SUCCESS ]]; echo $?)
ok=$(same_output "$work/out"; echo $?)
check 5 "the output is the reference's" "$ok" "$(tail -1 "$work/out.log")"
check 2 "the command returns once the job is done (_SUCCESS)" "$done_at_exit" "exit $rc"
python3 - "$work/out/_trace.jsonl" >"$work/trace.txt" 2>&1 <<'PY'
import json, sys
starts, ends, workers, succeeded = {}, {}, {}, {}
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "attempt_start":
        starts.setdefault(e["task"], []).append(e["t"])
    if e.get("event") == "attempt_end" and e.get("status") == "ok":
        ends[e["task"]] = e["t"]
        workers[e["task"]] = e.get("worker")
        succeeded[e["task"]] = succeeded.get(e["task"], 0) + 1
# In parallel: two of its tasks ran at the same time, or on both workers.
def parallel(kind):
    spans = sorted((starts[t][0], ends[t]) for t in starts if t.startswith(kind) and t in ends)
    on = {w for t, w in workers.items() if t.startswith(kind)}
    return any(b[0] < a[1] for a, b in zip(spans, spans[1:])) or len(on) >= 2
print("maps_parallel", int(parallel("m")))
print("reduces_parallel", int(parallel("r")))
# Twice: a task whose work was done to the end by two attempts. (A retry after a lost worker
# or a failed fetch, or the loser of a backup race, which is killed, is the master's business.)
print("twice", sum(n > 1 for n in succeeded.values()))
PY
val() { awk -v k="$1" '$1 == k { print $2 }' "$work/trace.txt"; }
check 2 "maps ran in parallel" "$([[ $ok == 0 && $(val maps_parallel) == 1 ]]; echo $?)" "$(head -1 "$work/trace.txt")"
check 2 "reduces ran in parallel" "$([[ $ok == 0 && $(val reduces_parallel) == 1 ]]; echo $?)"
check 1 "no task ran twice" "$([[ $ok == 0 && $(val twice) == 0 ]]; echo $?)" "$(val twice) tasks ran twice"

echo "crashing maps"
mkdir -p "$work/markers"
job "$work/crashed" "python3 crash.py $work/markers python3 mapper.py"
ok=$(same_output "$work/crashed"; echo $?)
# The wrapper did crash every map once (so the check means something): a failed attempt each.
crashes=$(python3 -c '
import json, sys
events = [json.loads(l) for l in open(sys.argv[1])]
maps = {e["task"] for e in events if e.get("event") == "attempt_start" and e["task"].startswith("m")}
failed = {e["task"] for e in events if e.get("event") == "attempt_end" and e.get("status") == "failed"}
print(len(maps - failed))' "$work/crashed/_trace.jsonl" 2>/dev/null)
[[ $crashes == 0 ]] || ok=1
check 3 "every map crashes once: the output is still right" "$ok" "$(tail -1 "$work/crashed.log"); maps that never crashed: ${crashes:-?}"
echo "score: $score/$total"
[[ $score == "$total" ]]
