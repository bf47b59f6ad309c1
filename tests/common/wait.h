// Waiting in tests: every wait is a poll of a condition against a real-time deadline.
// A test never sleeps to "let something happen"; it states what it waits for, and a
// condition that never holds fails the test at the deadline instead of hanging it.
#pragma once

#include <chrono>
#include <functional>
#include <thread>

#include "common/clock.h"

namespace mr::testing {

// Polls pred every interval_seconds until it returns true or timeout_seconds of monotonic
// real time have passed. Returns true iff pred held (it is checked once more at the
// deadline, so a slow pred still gets its last chance).
inline bool WaitUntil(const std::function<bool()>& pred, double timeout_seconds,
                      double interval_seconds = 0.01) {
  const double deadline = MonotonicSeconds() + timeout_seconds;
  while (MonotonicSeconds() < deadline) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::duration<double>(interval_seconds));
  }
  return pred();
}

}  // namespace mr::testing
