// How a map attempt emulates a slow or straggling worker (docs/architecture.md, "Slow
// and straggling workers"): after its real work it keeps its slot, without CPU, for
//   * (1/F − 1) × its measured work time when it read real input and the worker's
//     --speed F is below 1 (a synthetic map scales its own work by 1/F instead, and F >= 1
//     adds nothing: real work cannot be made faster), plus
//   * the straggler delay drawn for the attempt (common/straggler.h), when injected.
// The wait is cancellable within 10 ms and ticks the attempt's progress, so a held attempt
// is neither unkillable nor taken for a hung one. Thread-safe (no shared state).
#pragma once

#include <atomic>
#include <cstdint>

#include "common/status.h"

namespace mr::worker {

// (1/speed − 1) × work_seconds when reads_input and 0 < speed < 1, else 0.
double SpeedHoldSeconds(double speed, double work_seconds, bool reads_input);

// The share of the attempt's input fraction to report while it does its real work: speed
// when the hold above applies (the attempt's whole run is work / speed), else 1.
double WorkFractionScale(double speed, bool reads_input);

// Waits `seconds` on the monotonic clock in steps of at most 10 ms. Each step ticks
// `progress` and moves `fraction` linearly from its value at the start to 1 (both may be
// null). Returns Aborted("map task cancelled") as soon as `cancel` (may be null) is seen
// set, Ok after the whole wait.
Status HoldSlot(double seconds, const std::atomic<bool>* cancel, std::atomic<uint64_t>* progress,
                std::atomic<double>* fraction);

}  // namespace mr::worker
