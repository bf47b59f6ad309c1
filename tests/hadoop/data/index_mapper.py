#!/usr/bin/env python3
# An inverted index's mapper (the 6.5840 lab's, as a Streaming job): the document is the
# input file Hadoop names in the task's environment.
import os
import re
import sys

doc = os.path.basename(os.environ["mapreduce_map_input_file"])
for line in sys.stdin:
    for word in re.findall(r"[A-Za-z]+", line):
        print(word + "\t" + doc)
