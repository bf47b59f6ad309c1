#!/usr/bin/env python3
# One k-means step's reducer: each centroid's new place, the mean of its points.
import sys

def flush(c, xs, ys):
    print(c + "\t%.3f %.3f" % (sum(xs) / len(xs), sum(ys) / len(ys)))

current, xs, ys = None, [], []
for line in sys.stdin:
    c, point = line.rstrip("\n").split("\t", 1)
    if c != current and current is not None:
        flush(current, xs, ys)
        xs, ys = [], []
    current = c
    x, y = map(float, point.split())
    xs.append(x)
    ys.append(y)
if current is not None:
    flush(current, xs, ys)
