#!/usr/bin/env python3
# Word count's reducer: the lines come sorted by word; sum each word's run.
import sys

current, total = None, 0
for line in sys.stdin:
    word, count = line.rstrip("\n").split("\t", 1)
    if word != current:
        if current is not None:
            print(current + "\t" + str(total))
        current, total = word, 0
    total += int(count)
if current is not None:
    print(current + "\t" + str(total))
sys.stderr.write("reporter:status:reduced\n")
