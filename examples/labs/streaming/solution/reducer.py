#!/usr/bin/env python3
# Streaming lab, reference reducer: the sum of each word's counts (records sorted by word).
import sys

current, total = None, 0
for line in sys.stdin:
    word, _, count = line.rstrip("\n").partition("\t")
    if word != current:
        if current is not None:
            sys.stdout.write(f"{current}\t{total}\n")
        current, total = word, 0
    total += int(count)
if current is not None:
    sys.stdout.write(f"{current}\t{total}\n")
