// Weighted max-min fair division of a capacity with per-item minimums and caps
// (the Hadoop Fair Scheduler's fair share). Pure function; thread-safe.
#pragma once

#include <span>
#include <vector>

namespace mr::sched {

struct FairItem {
  double weight = 1;  // > 0; smaller values are clamped to a tiny positive number
  double min = 0;     // guaranteed share (clamped to cap)
  double cap = 0;     // demand: never give more than this
};

// Returns share_i = clamp(weight_i * L, min_i, cap_i) with L chosen so the
// shares sum to min(capacity, sum of caps). If the minimums alone exceed the
// capacity they are scaled down proportionally. O(n log n).
std::vector<double> WaterFill(std::span<const FairItem> items, double capacity);

}  // namespace mr::sched
