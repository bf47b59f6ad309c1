// AttemptWatch: the liveness of one running task attempt (docs/reliability.md, "Hung
// tasks"). The task thread ticks progress() as it reads records, writes them or exchanges
// bytes with a child process, and polls cancel(); the worker's heartbeat thread calls
// CheckHung() and, after `timeout` seconds without a tick, cancels the attempt (a
// streaming child is then killed, jobs/subprocess.h) and marks it timed out, which the
// attempt reports as FAILED "no progress for N s". Kill() cancels it at the master's
// request (HeartbeatReply.kills), which the attempt reports as KILLED. The task thread
// also sets fraction(), the share of its input consumed in [0, 1], which RUNNING reports
// carry, with its status line (SetStatus: a streaming program's reporter:status:). Tick,
// cancel, kill and fraction are atomics and the status is locked (any thread); CheckHung
// belongs to one checking thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

namespace mr::worker {

class AttemptWatch {
 public:
  std::atomic<uint64_t>* progress() { return &ticks_; }
  const std::atomic<bool>* cancel() const { return &cancel_; }
  void Cancel() { cancel_.store(true); }
  bool timed_out() const { return timed_out_.load(); }
  void Kill() {
    killed_.store(true);
    cancel_.store(true);
  }
  bool killed() const { return killed_.load(); }
  std::atomic<double>* fraction() { return &fraction_; }
  void SetStatus(std::string status) {
    std::lock_guard lock(status_mu_);
    status_ = std::move(status);
  }
  std::string status() const {
    std::lock_guard lock(status_mu_);
    return status_;
  }

  // At `now` (seconds, any monotonic origin): true, once, when no tick has been seen for
  // `timeout` seconds since the first check or the last tick; the attempt is then
  // cancelled. timeout <= 0 disables the check.
  bool CheckHung(double now, double timeout) {
    uint64_t ticks = ticks_.load(std::memory_order_relaxed);
    if (!checked_ || ticks != seen_ticks_) {
      checked_ = true;
      seen_ticks_ = ticks;
      seen_at_ = now;
      return false;
    }
    if (timeout <= 0 || timed_out_.load() || now - seen_at_ < timeout) return false;
    timed_out_.store(true);
    cancel_.store(true);
    return true;
  }

 private:
  std::atomic<uint64_t> ticks_{0};
  std::atomic<bool> cancel_{false};
  std::atomic<bool> timed_out_{false};
  std::atomic<bool> killed_{false};
  std::atomic<double> fraction_{0};
  mutable std::mutex status_mu_;
  std::string status_;  // guarded by status_mu_
  // The checking thread's view.
  bool checked_ = false;
  uint64_t seen_ticks_ = 0;
  double seen_at_ = 0;
};

}  // namespace mr::worker
