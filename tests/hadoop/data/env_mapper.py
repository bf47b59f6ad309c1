#!/usr/bin/env python3
# Prints what a streaming task sees of itself (Hadoop's configuration, dots as underscores),
# once per map, keyed by the map's split start.
import os
import sys

sys.stdin.read()
names = ["mapreduce_task_ismap", "mapreduce_task_partition", "mapreduce_map_input_start",
         "mapreduce_map_input_length", "mapreduce_job_id", "mapreduce_task_id", "my_property", "GREETING"]
start = os.environ["mapreduce_map_input_start"]
print(start.zfill(6) + "\t" + " ".join(n + "=" + os.environ.get(n, "(unset)") for n in names))
print("file\t" + os.path.basename(os.environ["mapreduce_map_input_file"]))
