// Runs an external filter program the Hadoop-Streaming way: `/bin/sh -c command`
// with `input` on its stdin and its stdout handed back line by line. A writer
// thread feeds stdin while the calling thread drains stdout, so a child that
// writes before it has read everything cannot deadlock us. Stderr is passed through to
// ours (the worker's log) by a third thread, which also keeps its tail for the caller.
// The child runs in its own process group so that a cancelled filter is killed with
// everything it started (`sh -c` may fork), and never the worker with it.
// Thread-compatible; safe in multithreaded processes (posix_spawn, no fork).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace mr::jobs {

// Optional hooks for the task running the filter. `progress` is called (from two threads)
// whenever bytes move to or from the child; `cancelled` is polled at least every
// kFilterPollMs while the child runs, and once it returns true the child's whole process
// group (the child leads its own) is killed and RunFilter returns Aborted; `fed` is called
// (from the thread feeding stdin) after each write with the share of `input` the child has
// taken so far, in (0, 1]. `stderr_tail` is called once, on the calling thread after the
// child has ended, with the last kStderrTailLines lines (at most kStderrTailBytes bytes) it
// wrote to stderr.
struct FilterHooks {
  std::function<void()> progress;
  std::function<bool()> cancelled;
  std::function<void(double share)> fed;
  std::function<void(std::string tail)> stderr_tail;
};
inline constexpr int kFilterPollMs = 50;
inline constexpr size_t kStderrTailBytes = 4096;
inline constexpr int kStderrTailLines = 20;

// The tail of `text` as FilterHooks::stderr_tail gets it: its last kStderrTailLines lines
// (a final line without '\n' counts), cut to the last kStderrTailBytes bytes at a line
// start when one falls inside them.
std::string StderrTail(std::string_view text);

// on_line gets each stdout line without its '\n' (a last line without '\n'
// included); a line may be of any length. A child that exits non-zero or is killed
// is FailedPrecondition naming the command and the exit code or signal. A child that
// stops reading early is not an error by itself (its exit status decides).
Status RunFilter(const std::string& command, std::string_view input,
                 const std::function<void(std::string_view line)>& on_line,
                 const FilterHooks& hooks = {});

}  // namespace mr::jobs
