#!/usr/bin/env python3
# Key-only records: each word on a line of its own, no tab.
import sys

for line in sys.stdin:
    for word in line.split():
        print(word)
