#!/usr/bin/env python3
# The inverted index's reducer: "word<TAB>N doc1,doc2" with the documents sorted.
import sys

def flush(word, docs):
    print(word + "\t" + str(len(docs)) + " " + ",".join(sorted(docs)))

current, docs = None, set()
for line in sys.stdin:
    word, doc = line.rstrip("\n").split("\t", 1)
    if word != current and current is not None:
        flush(current, docs)
        docs = set()
    current = word
    docs.add(doc)
if current is not None:
    flush(current, docs)
