#!/usr/bin/env bash
# The README's first command: installs, builds, and runs word count on the bundled
# sample on an embedded local cluster (a master and one worker per core on loopback).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
MR="${MR_BUILD_DIR:-build}/cli/mr"
OUT="mr-demo/wordcount"
rm -rf "$OUT"   # the demo's own previous output
mkdir -p mr-demo
"$MR" run wordcount --input examples/data/sample.txt --output "$OUT" --reducers 2 --split-size 32KiB
echo
echo "top 10 words:"
# awk reads all of sort's output (head would close the pipe early: SIGPIPE under pipefail).
cat "$OUT"/part-r-* | sort -t "$(printf '\t')" -k2,2nr -k1,1 | awk -F '\t' 'NR <= 10 {printf "  %-12s %s\n", $1, $2}'
echo
echo "all counts: $OUT/part-r-*   trace: $OUT/_trace.jsonl"
