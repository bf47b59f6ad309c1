#!/usr/bin/env python3
# Streaming lab, reference mapper: one "word\t1" per word.
import sys

for line in sys.stdin:
    for word in line.split():
        sys.stdout.write(word + "\t1\n")
