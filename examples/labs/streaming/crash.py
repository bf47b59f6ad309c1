#!/usr/bin/env python3
# The grader's crash wrapper: `python3 crash.py DIR CMD...` fails the first attempt of every
# task (a marker per task in DIR, shared by the local cluster's workers), after reading some
# input, as a machine lost in the middle of a task would; later attempts run CMD.
import os, sys

marker_dir, cmd = sys.argv[1], sys.argv[2:]
attempt = os.environ.get("mapreduce_task_attempt_id", "")
task = attempt.rsplit("_", 1)[0] or "unknown"
marker = os.path.join(marker_dir, task)
try:
    fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    os.close(fd)
except FileExistsError:
    os.execvp(cmd[0], cmd)
sys.stdin.readline()
sys.exit(3)
