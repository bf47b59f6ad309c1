// How input paths are read on the local file system — LocalInputSource's Resolve and List
// (jobs/input_source.h) — and the rules every source shares, after Hadoop's FileInputFormat:
// a glob pattern (quoted, so the shell left it alone) is expanded by mr; a directory is read
// for its files, skipping names that start with '_' or '.' (Hadoop's hidden-file filter:
// _SUCCESS, _logs, .crc files), and its subdirectories only when asked to (Hadoop's
// input.dir.recursive). docs/jobs.md, "Inputs". Thread-safe.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"

namespace mr::jobs {

// True if `name` is hidden from a directory listing of inputs: it starts with '_' or '.'.
bool IsHiddenInputName(const std::string& name);

// True if `arg` is a glob pattern: it holds '*', '?' or '['.
bool IsInputPattern(const std::string& arg);

// True if `match`, a match of glob `pattern`, is dropped as hidden: its last component is
// hidden and the pattern's last component does not start with the same character ('_*' does
// list _SUCCESS).
bool DropsHiddenMatch(const std::string& pattern, const std::string& match);

// The inputs to submit for `args`, in order:
//  - an argument that names an existing path is taken as it is, glob characters and all;
//  - otherwise, one with '*', '?' or '[' is a glob pattern: its matches, sorted, except those
//    DropsHiddenMatch drops; NotFound when nothing matches;
//  - a directory (given or matched) stays a directory — the master reads its files, one
//    level — unless `recursive`: then it becomes every regular file below it, in name order,
//    descending into subdirectories, skipping hidden names at every level (a directory with
//    no such file stays itself, and reads as empty).
// NotFound for a missing path that is not a pattern; IoError for an unreadable directory.
Result<std::vector<std::string>> ResolveInputs(const std::vector<std::string>& args, bool recursive);

// The regular files behind resolved inputs, in order: a file stays itself, a directory
// becomes its regular files sorted by name, one level, skipping hidden names. A missing
// input is NotFound naming it ("no such input: PATH").
Result<std::vector<std::string>> ExpandInputs(const std::vector<std::string>& inputs);

}  // namespace mr::jobs
