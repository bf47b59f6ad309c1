#!/usr/bin/env python3
# Prints its arguments once per map, to show how Hadoop split the command line.
import sys

sys.stdin.read()
print("args\t" + "|".join(sys.argv[1:]))
