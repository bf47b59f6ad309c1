#include "worker/task/slot_hold.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "common/clock.h"

namespace mr::worker {

double SpeedHoldSeconds(double speed, double work_seconds, bool reads_input) {
  if (!reads_input || !(speed > 0 && speed < 1) || !(work_seconds > 0)) return 0.0;
  return (1.0 / speed - 1.0) * work_seconds;
}

double WorkFractionScale(double speed, bool reads_input) {
  return reads_input && speed > 0 && speed < 1 ? speed : 1.0;
}

Status HoldSlot(double seconds, const std::atomic<bool>* cancel, std::atomic<uint64_t>* progress,
                std::atomic<double>* fraction) {
  constexpr double kStep = 0.01;
  auto cancelled = [cancel] { return cancel != nullptr && cancel->load(std::memory_order_relaxed); };
  if (cancelled()) return Status::Aborted("map task cancelled");
  if (!(seconds > 0)) return Status::Ok();
  const double from = fraction != nullptr ? fraction->load(std::memory_order_relaxed) : 0.0;
  const double start = MonotonicSeconds();
  const double until = start + seconds;
  for (double now = start; now < until;) {
    std::this_thread::sleep_for(std::chrono::duration<double>(std::min(kStep, until - now)));
    if (cancelled()) return Status::Aborted("map task cancelled");
    now = MonotonicSeconds();
    if (progress != nullptr) progress->fetch_add(1, std::memory_order_relaxed);
    if (fraction != nullptr) {
      const double done = std::min(1.0, (now - start) / seconds);
      fraction->store(from + (1.0 - from) * done, std::memory_order_relaxed);
    }
  }
  return Status::Ok();
}

}  // namespace mr::worker
