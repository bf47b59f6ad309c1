#!/usr/bin/env python3
# Lists each key's values, sorted: what the maps' combiners handed over.
import sys

current, values = None, []
for line in sys.stdin:
    key, value = line.rstrip("\n").split("\t", 1)
    if key != current and current is not None:
        print(current + "\t" + ",".join(sorted(values)))
        values = []
    current = key
    values.append(value)
if current is not None:
    print(current + "\t" + ",".join(sorted(values)))
