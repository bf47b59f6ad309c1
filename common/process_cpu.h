// The CPU time a process has used (user + system), read from Linux's /proc/PID/stat: what
// the experiment's calibration measures the shuffle's CPU cost with. Thread-safe.
#pragma once

#include <sys/types.h>

#include <string_view>

#include "common/status.h"

namespace mr {

// Seconds of CPU the process `pid` has used so far (all its threads; not its children).
// NotFound when no such process exists; IoError when /proc cannot be read or parsed.
Result<double> ProcessCpuSeconds(pid_t pid);

// The same from the text of a /proc/PID/stat file and the clock ticks per second
// (sysconf(_SC_CLK_TCK)); InvalidArgument when the text is not in that format.
Result<double> ParseProcStatCpuSeconds(std::string_view stat_text, long ticks_per_second);

}  // namespace mr
