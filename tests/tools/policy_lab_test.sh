#!/usr/bin/env bash
# The policy lab (docs/labs/policy-lab.md) as a course runs it: mrlab installed into a scratch
# prefix; the template (examples/labs/policy/lab_policy.cc) builds and fails its grader;
# the reference solution dropped in passes it with the full score.
# Usage: policy_lab_test.sh SOURCE_DIR BUILD_DIR SCRATCH_DIR      Exit: 0 pass, 1 fail.
set -uo pipefail
src=$1 build=$2 scratch=$3
mkdir -p "$scratch"
work=$(mktemp -d "$scratch/lab.XXXXXX")
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" --strip >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
lab=$work/lab
cp -r "$src/examples/labs/policy" "$lab"

"$lab/grade.sh" --prefix "$work/prefix" --work "$work/g1" >"$work/template.out" 2>&1
rc=$?
cat "$work/template.out"
if [[ $rc == 0 ]] || ! grep -q "^score: 0/15$" "$work/template.out"; then
  echo "policy_lab_test: the template should build and score 0 (rc $rc)"; exit 1
fi
grep -q "^simulator$" "$work/template.out" || { echo "policy_lab_test: the template did not build"; exit 1; }

cp "$lab/solution/lab_policy.cc" "$lab/lab_policy.cc"
"$lab/grade.sh" --prefix "$work/prefix" --work "$work/g2" >"$work/solution.out" 2>&1
rc=$?
cat "$work/solution.out"
if [[ $rc != 0 ]] || ! grep -q "^score: 15/15$" "$work/solution.out"; then
  echo "policy_lab_test: the reference solution should score 15/15 (rc $rc)"; exit 1
fi
echo "policy_lab_test: template 0/15, reference solution 15/15: ok"
