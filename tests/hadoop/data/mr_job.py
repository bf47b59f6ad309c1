#!/usr/bin/env python3
# A word count shaped as mrjob runs one step of an MRJob under Hadoop Streaming:
# `python3 mr_job.py --step-num=0 --mapper|--combiner|--reducer`, lines in mrjob's default
# protocols (raw lines in; JSON key TAB JSON value between steps and out), counters through
# increment_counter's reporter lines. Written for mrlab's tests; no mrjob needed.
import json
import sys


def mapper(lines):
    for line in lines:
        for word in line.split():
            yield word.lower(), 1
        sys.stderr.write("reporter:counter:mr_job,lines,1\n")


def grouped(lines):
    current, values = None, []
    for line in lines:
        key, value = line.rstrip("\n").split("\t", 1)
        if key != current and current is not None:
            yield json.loads(current), values
            values = []
        current = key
        values.append(json.loads(value))
    if current is not None:
        yield json.loads(current), values


def main(argv):
    if "--step-num=0" not in argv:
        sys.exit("mr_job.py: --step-num=0 expected, got " + " ".join(argv))
    if "--mapper" in argv:
        out = mapper(sys.stdin)
    elif "--combiner" in argv or "--reducer" in argv:
        out = ((k, sum(vs)) for k, vs in grouped(sys.stdin))
    else:
        sys.exit("mr_job.py: which task?")
    for key, value in out:
        sys.stdout.write(json.dumps(key) + "\t" + json.dumps(value) + "\n")


main(sys.argv[1:])
