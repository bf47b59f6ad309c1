// Weighted max-min fair division of a capacity with per-item minimums and caps
// (the Hadoop Fair Scheduler's fair share). Pure function; thread-safe.
#pragma once

#include <span>
#include <utility>
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

// Working memory of WaterFill; a caller that keeps one allocates nothing once
// it has grown. Contents are meaningless between calls.
struct WaterFillScratch {
  struct Norm {
    double w, lo, hi;
  };
  std::vector<Norm> norm;
  std::vector<std::pair<double, int>> events;  // (level, item*2 + is_stop)
};
// As above, writing the shares into `*out` (resized to items.size()).
void WaterFill(std::span<const FairItem> items, double capacity, std::vector<double>* out,
               WaterFillScratch* scratch);

}  // namespace mr::sched
