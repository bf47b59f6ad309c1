#!/usr/bin/env python3
"""The include graph's check: no #include arrow runs up from a lower module.

Reads every `#include "..."` in the source folders (tests/, bench/ and fuzz/ may include
anything) and fails, printing file:line and the arrow, on any include the layer table below
does not allow. The table is the one statement of the layering (docs/architecture.md names
the folders; this file says which may include which).

Usage: include_graph.py [SOURCE_ROOT]   (default: the checkout this file is in)
       include_graph.py --self-test       (the check on a small made-up tree: it must fail
                                           on each arrow up and pass the allowed ones)
Exit status: 0 clean, 1 an arrow not allowed (or a folder the table does not place).
"""
import os
import re
import sys

# Layers, lowest first. A module may include any module of a lower layer. Within a layer
# modules are peers and include each other only as INTERNAL below allows.
LAYERS = [
    ["common"],
    ["proto"],
    ["trace"],  # the typed trace events (issue 24, item 7), once the folder exists
    ["jobs", "scheduler", "scheduler/util", "scheduler/flex", "scheduler/policies", "scheduler/stages"],
    ["model", "model/fluid", "model/tasksim", "model/slotted", "model/mst", "model/flex", "model/makespan", "web", "shuffle"],
    ["experiment", "client", "worker", "worker/task", "hadoop", "yarn", "loadgen"],
    ["master"],
    ["cli"],
]

# Arrows allowed between modules of one layer: module -> the peers it may include.
INTERNAL = {
    # scheduler/ is the seam; util/ builds on it; the policies and the stages on both.
    # flex/ (FLEX's allocator, once merged) is a library beside util/ that policies may use.
    "scheduler/util": {"scheduler"},
    "scheduler/flex": {"scheduler", "scheduler/util"},
    "scheduler/policies": {"scheduler", "scheduler/util", "scheduler/flex"},
    "scheduler/stages": {"scheduler", "scheduler/util"},
    # The task-level simulator reuses the fluid model's workloads; slotted, mst and flex
    # stand alone. The model/ root (command-line files and model_commands) drives them all.
    "model/tasksim": {"model/fluid"},
    "model": {"model/fluid", "model/tasksim", "model/slotted", "model/mst", "model/flex"},
    # The worker daemon runs the task runners and talks to the master through client/.
    "worker": {"worker/task", "client"},
    # The load generator's simulated workers speak the worker protocol themselves; its job
    # driver submits and awaits through client/ (issue 29).
    "loadgen": {"client"},
}

# Single files of a peer that a module may include, by design (not a module-wide arrow).
PEER_FILES = {
    # A job request carries the one definition of a job's parameters (scheduler/job_params.h,
    # its own library mr::job_params: plain types, no snapshot), from which jobs/ builds
    # JobSpecs. Nothing else of the scheduler is visible to jobs/.
    "jobs": {"scheduler/job_params.h"},
    # The per-job parameters check a FLEX metric name and SLA against the one menu
    # (scheduler/flex/metrics.h, on common only), not a second list.
    "scheduler": {"scheduler/flex/metrics.h"},
}

# Known arrows that break the layering today, each allowed by name until it is fixed. An
# entry is (including module, included file): only that file, nowhere else. One that no
# arrow uses any more is printed as a note (so it can be removed), not failed: branches
# that fix one merge without touching this table.
EXCEPTIONS = set()  # none today

# Folders whose files may include anything, and folders with no C++ of the product.
FREE = {"tests", "bench", "fuzz"}
IGNORED = {"build", "docs", "examples", "scripts", "cmake", "Testing"}
# Modules whose sub-folders are modules of their own (listed in LAYERS); in any other
# module a sub-folder belongs to its parent (shuffle/format, shuffle/net).
SPLIT = {"scheduler", "model", "worker"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE_SUFFIXES = (".h", ".cc", ".hpp", ".cpp", ".inc")


def layer_of():
    where = {}
    for index, modules in enumerate(LAYERS):
        for m in modules:
            where[m] = index
    return where


def module_of(path, where):
    """The module of a root-relative path, or None if the table does not place it."""
    parts = path.split("/")
    if len(parts) > 2 and parts[0] in SPLIT:
        sub = parts[0] + "/" + parts[1]
        return sub if sub in where else None
    return parts[0] if parts[0] in where else None


def target_module(including, target, root, where):
    """The module an include names: generated protobuf headers are proto's, a bare name is
    the including file's own folder."""
    if target.endswith(".pb.h"):
        return "proto"
    if "/" not in target:
        return module_of(os.path.relpath(os.path.join(os.path.dirname(including), target), root), where)
    return module_of(target, where)


def allowed(src, dst, target, where):
    if src == dst or where[dst] < where[src]:
        return True
    if where[dst] == where[src] and dst in INTERNAL.get(src, set()):
        return True
    if where[dst] == where[src] and target in PEER_FILES.get(src, set()):
        return True
    return (src, target) in EXCEPTIONS


def source_files(root):
    for top in sorted(os.listdir(root)):
        if top.startswith(".") or top in FREE or top in IGNORED or not os.path.isdir(os.path.join(root, top)):
            continue
        # Any other build tree beside the sources (build-bench, build-asan...: it holds a
        # CMakeCache.txt) holds generated code, not a module.
        if os.path.exists(os.path.join(root, top, "CMakeCache.txt")):
            continue
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.join(dirpath, name)


def check(root):
    where = layer_of()
    problems = []
    used_exceptions = set()
    for path in source_files(root):
        rel = os.path.relpath(path, root)
        src = module_of(rel, where)
        if src is None:
            problems.append(f"{rel}: its folder has no place in the layer table (tests/tools/include_graph.py)")
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for line_no, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                dst = target_module(path, target, root, where)
                if dst is None:
                    problems.append(f"{rel}:{line_no}: #include \"{target}\": not a file of a module in the layer table")
                elif not allowed(src, dst, target, where):
                    problems.append(f"{rel}:{line_no}: #include \"{target}\": {src} may not include {dst}")
                elif src != dst and where[dst] >= where[src] and (src, target) in EXCEPTIONS:
                    used_exceptions.add((src, target))
    for src, target in sorted(EXCEPTIONS - used_exceptions):
        print(f"note: exception ({src}, {target}) is not used by any include: remove it from EXCEPTIONS")
    return problems


def self_test():
    import tempfile
    files = {
        "common/a.h": '#include "common/b.h"\n',          # within a module
        "common/b.h": "",
        "jobs/j.h": '#include "common/a.h"\n#include "mr.pb.h"\n',  # down; generated proto
        "scheduler/s.h": "",
        "scheduler/job_params.h": "",
        "jobs/k.h": '#include "scheduler/job_params.h"\n',            # a peer's file, by name
        "scheduler/util/u.h": '#include "scheduler/s.h"\n',         # declared internal arrow
        "scheduler/policies/p.h": '#include "scheduler/util/u.h"\n',
        "worker/w.h": '#include "client/c.h"\n#include "worker/task/t.h"\n',
        "worker/task/t.h": '#include "jobs/j.h"\n',
        "client/c.h": "",
        "tests/x_test.cc": '#include "cli/anything.h"\n',            # tests may include anything
        "build-bench/CMakeCache.txt": "",                           # a second build tree...
        "build-bench/proto/mr.pb.h": '#include "master/m.h"\n',    # ...is not a module
    }
    bad = {
        "common/up.h": '#include "master/m.h"\n',                    # up across layers
        "jobs/side.h": '#include "scheduler/s.h"\n',                 # peers of one layer
        "scheduler/s2.h": '#include "scheduler/policies/p.h"\n',     # the seam on its policies
        "client/c2.h": '#include "worker/w.h"\n',                    # against the declared arrow
        "master/m.h": "",
        "newfolder/n.h": "",                                        # a folder with no place
    }
    with tempfile.TemporaryDirectory() as root:
        for rel, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        saved = set(EXCEPTIONS)
        EXCEPTIONS.clear()
        try:
            clean = check(root)
            for rel, text in bad.items():
                os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
                with open(os.path.join(root, rel), "w") as f:
                    f.write(text)
            found = check(root)
        finally:
            EXCEPTIONS.update(saved)
    expected = ["client/c2.h:1:", "common/up.h:1:", "jobs/side.h:1:", "newfolder/n.h:", "scheduler/s2.h:1:"]
    missing = [e for e in expected if not any(p.startswith(e) for p in found)]
    ok = not clean and not missing and len(found) == len(expected)
    for p in clean:
        print("self-test: an allowed arrow was refused:", p)
    for e in missing:
        print("self-test: not caught:", e)
    if len(found) != len(expected):
        print("self-test: expected", len(expected), "problems, got:", *found, sep="\n  ")
    print("include graph self-test:", "ok" if ok else "FAILED")
    return 0 if ok else 1


def main(argv):
    if len(argv) > 1 and argv[1] == "--self-test":
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"include graph: {len(problems)} problem(s); the layers are in tests/tools/include_graph.py")
        return 1
    print("include graph: every arrow runs down the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
