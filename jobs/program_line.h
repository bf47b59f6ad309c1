// How Hadoop Streaming turns `-mapper "python3 mapper.py"` into a program and its arguments
// (PipeMapRed): the command is cut at spaces outside quotes, with no shell; a relative
// program is made executable in the task's directory (where shipped files are) and looked up
// on PATH with that directory first. docs/streaming.md, "Commands". Pure functions over the
// file system; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr::jobs {

// Hadoop's splitArgs: words end at a space outside quotes; a single or double quote opens
// and closes a quoted stretch, which ends a word where it starts and ends, and the quotes are
// dropped; no escapes, no other whitespace. "python3 m.py 'a b'" -> python3, m.py, a b.
std::vector<std::string> SplitCommandLine(std::string_view command);

// The program Hadoop would run for `program` (argv[0] of SplitCommandLine) in task directory
// `cwd`: an absolute path as it is; otherwise cwd/program is made executable (chmod a+x) if
// it is a file, then the first executable regular file named `program` in cwd or on
// `path_env` (colon-separated) is returned as an absolute path, or `program` unchanged when
// none is (the spawn then looks it up itself, and fails naming it).
std::string ResolveProgram(const std::string& program, const std::string& cwd, std::string_view path_env);

}  // namespace mr::jobs
