#!/usr/bin/env bash
# bench/micro/data_path.sh MR_BINARY LABEL [SIZE]: times the four mr runs of
# bench/throughput.sh (wordcount, sort, grep literal, grep regex) on bench/data/*-SIZE.txt
# (default 512MiB; generate with bench/throughput.sh first). Outputs and times in
# /tmp/mr-data-path-LABEL/ (kept, for checking against the peers).
set -u
MR=$1; L=$2; SZ=${3:-512MiB}
D=$(cd "$(dirname "$0")/../data" && pwd); O=/tmp/mr-data-path-$L; rm -rf $O; mkdir -p $O
t() { local name=$1; shift; cat >/dev/null "$D/words-$SZ.txt" "$D/records-$SZ.txt"; /usr/bin/time -f "$name %e wall %U user %S sys %M maxrssKB" -a -o $O/times "$@" > $O/$name.out 2>&1; grep -h "succeeded in" $O/$name.out | sed "s/^/$name /" >> $O/times; }
t wc $MR run wordcount -q --input $D/words-$SZ.txt --output $O/wc --split-size 64MiB --reducers 2
t sort $MR run sort -q --input $D/records-$SZ.txt --output $O/sort --split-size 64MiB --reducers 4
t greplit $MR run grep -q --pattern rdruugp --input $D/words-$SZ.txt --output $O/gl --split-size 64MiB --reducers 2
t grepre $MR run grep -q --pattern '[0-9]+th|[a-z]+-[a-z]+[.;]' --input $D/words-$SZ.txt --output $O/gr --split-size 64MiB --reducers 2
echo "load $(cut -d' ' -f1-3 /proc/loadavg)" >> $O/times
cat $O/times
