// AttemptLog: writes one task attempt's log (`mr logs`; where it lives and what it holds:
// shuffle/task_log.h). Append takes the bytes a task's child program wrote to stderr, from
// any thread of the attempt (the child's stderr thread); Note writes one of the worker's own
// lines, "[mr HH:MM:SS.mmm] text". Bounded: once `cap` bytes are in the file, one line says
// so and later appended bytes are dropped; the worker's lines still go in, up to
// kNoteReserveBytes past the cap, so the attempt's end is always there. A log that cannot be
// written is not the attempt's failure: the attempt runs on and its log stops (one warning
// in the worker's own log). Thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "common/log.h"
#include "common/status.h"
#include "shuffle/task_log.h"

namespace mr::worker {

class AttemptLog {
 public:
  static constexpr uint64_t kNoteReserveBytes = 16u << 10;

  // Creates (or empties: an attempt id run again after a restart starts afresh) the log at
  // `path`, making its directory. IoError naming the path if it cannot.
  static Result<std::unique_ptr<AttemptLog>> Open(const std::string& path,
                                                  uint64_t cap = shuffle::kTaskLogCapBytes);
  ~AttemptLog();
  AttemptLog(const AttemptLog&) = delete;
  AttemptLog& operator=(const AttemptLog&) = delete;

  void Append(std::string_view bytes);
  void Note(std::string_view line);
  // Bytes in the file; bytes dropped past the cap.
  uint64_t size() const;
  uint64_t dropped() const;

 private:
  AttemptLog(int fd, std::string path, uint64_t cap) : fd_(fd), path_(std::move(path)), cap_(cap) {}
  // REQUIRES: mu_ held. False once writing has failed.
  bool WriteLocked(std::string_view bytes, bool* failed_now);

  mutable std::mutex mu_;
  int fd_;
  const std::string path_;
  const uint64_t cap_;
  uint64_t size_ = 0;      // guarded by mu_
  uint64_t dropped_ = 0;   // guarded by mu_
  bool cut_ = false;       // guarded by mu_: the "rest dropped" line is written
  bool failed_ = false;    // guarded by mu_
};

// While alive, every line the calling thread logs (MR_LOG_*) also goes into `log` as a
// worker line (common/log.h, ThreadLogCopy). `log` may be null (nothing is copied).
class AttemptLogCapture {
 public:
  explicit AttemptLogCapture(AttemptLog* log);

 private:
  ThreadLogCopy copy_;
};

}  // namespace mr::worker
