// Runs an external filter program the Hadoop-Streaming way: `/bin/sh -c command`
// with `input` on its stdin and its stdout handed back line by line. A writer
// thread feeds stdin while the calling thread drains stdout, so a child that
// writes before it has read everything cannot deadlock us. Stderr is inherited.
// Thread-compatible; safe in multithreaded processes (posix_spawn, no fork).
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace mr::jobs {

// on_line gets each stdout line without its '\n' (a last line without '\n'
// included). A child that exits non-zero or is killed is FailedPrecondition
// naming the command and the exit code or signal. A child that stops reading
// early is not an error by itself (its exit status decides).
// The child runs in a process group of its own (a terminal's Ctrl-C is for the worker, not
// for it). Once *cancel is set (cancel may be null) the whole group is SIGKILLed within
// about kCancelPollMs and the call returns Aborted.
inline constexpr int kCancelPollMs = 100;
Status RunFilter(const std::string& command, std::string_view input,
                 const std::function<void(std::string_view line)>& on_line,
                 const std::atomic<bool>* cancel = nullptr);

}  // namespace mr::jobs
