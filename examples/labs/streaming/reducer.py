#!/usr/bin/env python3
# Streaming lab, the reducer (docs/labs/streaming-lab.md): read "WORD<TAB>COUNT" records,
# sorted by word (all of a word's records are together), and write "WORD<TAB>TOTAL" once per
# word.
import sys

for line in sys.stdin:
    pass  # TODO: add up each word's counts and write "word\ttotal" when the word changes
