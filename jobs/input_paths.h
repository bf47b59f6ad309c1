// What `mr run` / `mr submit --input` name, resolved on the client as Hadoop's
// FileInputFormat reads its input paths: a glob pattern (quoted, so the shell left it alone)
// is expanded by mr; a directory is read for its files, skipping names that start with '_' or
// '.' (Hadoop's hidden-file filter: _SUCCESS, _logs, .crc files), and its subdirectories only
// when asked to (Hadoop's input.dir.recursive). docs/jobs.md, "Inputs". Thread-safe.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"

namespace mr::jobs {

// True if `name` is hidden from a directory listing of inputs: it starts with '_' or '.'.
bool IsHiddenInputName(const std::string& name);

// The inputs to submit for `args`, in order:
//  - an argument that names an existing path is taken as it is, glob characters and all;
//  - otherwise, one with '*', '?' or '[' is a glob pattern: its matches, sorted, except those
//    whose last component is hidden (unless the pattern's last component starts with the
//    same character); NotFound when nothing matches;
//  - a directory (given or matched) stays a directory — the master reads its files, one
//    level — unless `recursive`: then it becomes every regular file below it, in name order,
//    descending into subdirectories, skipping hidden names at every level (a directory with
//    no such file stays itself, and reads as empty).
// NotFound for a missing path that is not a pattern; IoError for an unreadable directory.
Result<std::vector<std::string>> ResolveInputs(const std::vector<std::string>& args, bool recursive);

}  // namespace mr::jobs
