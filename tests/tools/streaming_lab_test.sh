#!/usr/bin/env bash
# The streaming lab (docs/labs/streaming-lab.md) as a course runs it: mrlab installed into a
# scratch prefix; the template (examples/labs/streaming/) fails its grader; the reference
# solution dropped in passes it with the full score.
# Usage: streaming_lab_test.sh SOURCE_DIR BUILD_DIR SCRATCH_DIR      Exit: 0 pass, 1 fail.
set -uo pipefail
src=$1 build=$2 scratch=$3
mkdir -p "$scratch"
work=$(mktemp -d "$scratch/lab.XXXXXX")
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" --strip >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
lab=$work/lab
cp -r "$src/examples/labs/streaming" "$lab"

"$lab/grade.sh" --prefix "$work/prefix" --work "$work/g1" >"$work/template.out" 2>&1
rc=$?
cat "$work/template.out"
if [[ $rc == 0 ]] || grep -q "^score: 15/15$" "$work/template.out" || ! grep -q "^score: " "$work/template.out"; then
  echo "streaming_lab_test: the template should run and fail its grader (rc $rc)"; exit 1
fi
cp "$lab/solution/mapper.py" "$lab/solution/reducer.py" "$lab/"
"$lab/grade.sh" --prefix "$work/prefix" --work "$work/g2" >"$work/solution.out" 2>&1
rc=$?
cat "$work/solution.out"
if [[ $rc != 0 ]] || ! grep -q "^score: 15/15$" "$work/solution.out"; then
  echo "streaming_lab_test: the reference solution should score 15/15 (rc $rc)"; exit 1
fi
echo "streaming_lab_test: the template fails, the reference solution scores 15/15: ok"
