// Child programs the Hadoop-Streaming way: a ChildProcess is fed records on its stdin as the
// task reads them and its stdout lines are handed back, on the caller's thread, as they come
// (docs/streaming.md, "Records in, records out"). The task holds at most
// ChildProcess::kInputBufferBytes of input for the child plus the line being split, whatever
// the size of its split or partition: writing waits for the child, and while it waits it
// reads the child's stdout, so a child that writes before it has read everything cannot
// deadlock us. Stderr is read by a thread of its own, line by line: a hook may take a line
// (Hadoop's "reporter:" lines), the rest is passed through to ours (the worker's log) and
// its tail kept. The child leads its own process group, so a cancelled child is killed with
// everything it started (`sh -c` may fork), and never the worker with it.
// Thread-compatible (one thread drives a ChildProcess); posix_spawn, no fork.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/status.h"

namespace mr::jobs {

// Optional hooks for the task running the child. `progress` is called whenever bytes move
// to or from the child (from the driving thread and the stderr thread); `cancelled` is
// polled at least every kFilterPollMs while we wait for the child, and once it returns true
// the child's whole process group is killed and the call returns Aborted; `fed` (RunFilter
// only) is called after each write with the share of the input the child has taken, in
// (0, 1]. `stderr_line` is called on the stderr thread with each line the child writes to
// stderr (without its '\n'); returning true takes the line: it is neither passed to our
// stderr nor kept in the tail. `stderr_tail` is called once, on the driving thread after the
// child has ended, with the last kStderrTailLines lines (at most kStderrTailBytes bytes) of
// the rest. `stderr_copy`, on the stderr thread, gets the same bytes as our stderr does, as
// they go (a line with its '\n'; a very long line in pieces): the attempt's log (`mr logs`).
struct FilterHooks {
  std::function<void()> progress;
  std::function<bool()> cancelled;
  std::function<void(double share)> fed;
  std::function<bool(std::string_view line)> stderr_line;
  std::function<void(std::string tail)> stderr_tail;
  std::function<void(std::string_view bytes)> stderr_copy;
};
inline constexpr int kFilterPollMs = 50;
inline constexpr size_t kStderrTailBytes = 4096;
inline constexpr int kStderrTailLines = 20;

// The tail of `text` as FilterHooks::stderr_tail gets it: its last kStderrTailLines lines
// (a final line without '\n' counts), cut to the last kStderrTailBytes bytes at a line
// start when one falls inside them.
std::string StderrTail(std::string_view text);

// What to run. argv[0] containing a '/' is run as it is (relative to cwd), else it is looked
// up on this process's PATH.
struct ChildSpec {
  std::vector<std::string> argv;
  std::vector<std::string> env;  // "NAME=VALUE": the child's whole environment; empty = ours
  std::string cwd;               // "" = ours
  std::string name;              // how messages name it: the command as the user wrote it
  bool nonzero_exit_ok = false;  // a non-zero exit is not a failure (Hadoop's
                                 // stream.non.zero.exit.is.failure=false)
};

// Splits bytes into lines at '\n' (`crlf`: also at '\r' and "\r\n", as Hadoop's LineReader
// does; a '\r' at the end of a chunk waits for the next byte). Only new bytes are searched,
// so a line of any length costs time linear in its size. Single-threaded.
class LineSplitter {
 public:
  using LineFn = std::function<void(std::string_view line)>;
  LineSplitter(LineFn on_line, bool crlf) : on_line_(std::move(on_line)), crlf_(crlf) {}
  void Add(const char* data, size_t n);
  // The last line, if it did not end with a terminator.
  void Finish();
  size_t pending() const { return pending_.size(); }

 private:
  LineFn on_line_;
  bool crlf_;
  bool after_cr_ = false;  // the last byte seen ended a line with '\r': skip one '\n'
  std::string pending_;
};

class ChildProcess {
 public:
  using LineFn = std::function<void(std::string_view line)>;
  // Input held for the child before a write waits for it.
  static constexpr size_t kInputBufferBytes = 256 << 10;

  // Starts the child. on_line gets its stdout lines (split as LineSplitter with `crlf`), on
  // the thread that calls Write and Finish. IoError "cannot start 'NAME': ..." if it cannot
  // be spawned (no such program, cwd missing).
  static Result<std::unique_ptr<ChildProcess>> Start(const ChildSpec& spec, FilterHooks hooks, LineFn on_line,
                                                     bool crlf = false);
  // Kills the child's process group if it still runs, and reaps it.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Queues bytes for the child's stdin; once kInputBufferBytes are queued, writes them all,
  // handing the stdout lines that arrive meanwhile to on_line. A child that has stopped
  // reading (closed its stdin) takes the bytes and drops them: its exit status decides.
  // Aborted once the hooks say cancelled (the child is then killed).
  Status Write(std::string_view bytes);
  // Ends the child's stdin, hands the rest of its stdout to on_line, waits for it to exit.
  // FailedPrecondition naming the command and the exit code or signal unless it exited 0
  // (or spec.nonzero_exit_ok); Aborted if cancelled meanwhile. Call once.
  Status Finish();

  // Bytes of stdin written to the child so far (taken, or dropped after it closed stdin).
  uint64_t bytes_taken() const { return taken_; }
  // The most the process held at once: queued input plus the part of a stdout line not yet
  // handed on. Bounded by kInputBufferBytes plus a record plus the longest output line.
  size_t peak_buffered_bytes() const { return peak_buffered_; }

 private:
  class StderrPump;
  ChildProcess(ChildSpec spec, FilterHooks hooks, LineFn on_line, bool crlf);
  // Writes queued input and reads stdout until the queue is empty (to_eof false) or stdout
  // has ended (to_eof true).
  Status Pump(bool to_eof);
  void ReadStdout();
  void WriteStdin();
  void CloseStdin();
  void NotePeak();
  // Kills the group (if `kill`), waits for the child, stops the stderr pump. Idempotent.
  Status Reap(bool kill);

  ChildSpec spec_;
  FilterHooks hooks_;
  LineSplitter lines_;
  pid_t pid_ = -1;
  int in_fd_ = -1, out_fd_ = -1;
  bool out_eof_ = false;
  std::string in_buf_;
  size_t in_pos_ = 0;  // bytes of in_buf_ already written
  uint64_t taken_ = 0;
  size_t peak_buffered_ = 0;
  std::unique_ptr<StderrPump> err_;
  bool reaped_ = true;  // until a child has been spawned: nothing to reap
  Status exit_status_;
};

// Runs `/bin/sh -c command` with `input` on its stdin (fed in kInputBufferBytes writes) and
// its stdout handed back line by line; on_line gets each line without its '\n' (a last line
// without '\n' included). Errors as ChildProcess::Finish. A child that stops reading early is
// not an error by itself (its exit status decides).
Status RunFilter(const std::string& command, std::string_view input,
                 const std::function<void(std::string_view line)>& on_line, const FilterHooks& hooks = {});

}  // namespace mr::jobs
