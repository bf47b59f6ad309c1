#!/usr/bin/env python3
# Word count's mapper as Hadoop Streaming users write it: one "word<TAB>1" line per word.
import sys

for line in sys.stdin:
    for word in line.split():
        print(word + "\t1")
    sys.stderr.write("reporter:counter:WordCount,Lines,1\n")
