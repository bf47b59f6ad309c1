// Clock: the one source of time for the scheduler, the simulator and the daemons.
// Time is seconds as a double. SystemClock reads the wall clock (Unix epoch, so all
// processes of a cluster on one host share it); ManualClock is advanced by tests.
// Implementations are thread-safe.
#pragma once

#include <atomic>

namespace mr {

class Clock {
 public:
  virtual ~Clock() = default;
  // Seconds since the Unix epoch (SystemClock) or since an arbitrary origin (ManualClock).
  virtual double Now() const = 0;
};

class SystemClock final : public Clock {
 public:
  double Now() const override;
  static const SystemClock* Get();
};

class ManualClock final : public Clock {
 public:
  explicit ManualClock(double start = 0.0) : now_(start) {}
  double Now() const override { return now_.load(); }
  void Set(double t) { now_.store(t); }
  void Advance(double dt) { now_.store(now_.load() + dt); }

 private:
  std::atomic<double> now_;
};

// Monotonic seconds for measuring intervals inside one process.
double MonotonicSeconds();
// CPU seconds consumed by the calling thread.
double ThreadCpuSeconds();

}  // namespace mr
