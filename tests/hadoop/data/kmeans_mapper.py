#!/usr/bin/env python3
# One k-means step's mapper: the centroids come as a shipped side file, how many to use
# from -cmdenv; each point goes to its nearest centroid.
import os
import sys

k = int(os.environ["KMEANS_K"])
with open("centroids.txt") as f:
    centroids = [tuple(map(float, l.split())) for l in f if l.strip()][:k]
for line in sys.stdin:
    x, y = map(float, line.split())
    best = min(range(len(centroids)), key=lambda i: (centroids[i][0] - x) ** 2 + (centroids[i][1] - y) ** 2)
    print(str(best) + "\t" + line.strip())
