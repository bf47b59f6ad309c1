#!/usr/bin/env python3
# Streaming lab, the mapper (docs/labs/streaming-lab.md): read lines of text on standard
# input and write one record per word, "WORD<TAB>1", on standard output. A word is a
# maximal run of non-blank characters (str.split()), kept as it is (no case folding).
import sys

for line in sys.stdin:
    pass  # TODO: write "word\t1" for every word of the line
