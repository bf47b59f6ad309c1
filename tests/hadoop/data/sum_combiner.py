#!/usr/bin/env python3
# A combiner that does all the aggregation: sums each key's run of counts.
import sys

current, total = None, 0
for line in sys.stdin:
    key, count = line.rstrip("\n").split("\t", 1)
    if key != current and current is not None:
        print(current + "\t" + str(total))
        total = 0
    current = key
    total += int(count)
if current is not None:
    print(current + "\t" + str(total))
