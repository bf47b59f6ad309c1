// Random instances of the slotted model for its tests (bounds and live policies).
#pragma once

#include <algorithm>
#include <vector>

#include "common/rng.h"
#include "model/slotted/slotted_workload.h"

namespace mr::model::testing {

// Up to 8 jobs arriving over 10 slots on 1-6 machines (set in *machines), 1-6 maps and 0-3
// reduce tasks of 1-5 units each: small enough that queues form and the map-before-reduce
// dependency matters.
inline std::vector<SlottedJob> RandomSlottedInstance(Rng& rng, int* machines) {
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng.Uniform() * (hi - lo + 1)); };
  *machines = pick(1, 6);
  std::vector<SlottedJob> jobs(static_cast<size_t>(pick(1, 8)));
  for (SlottedJob& j : jobs) {
    j.arrival = pick(1, 10);
    j.maps = pick(1, 6);
    j.reduces.resize(static_cast<size_t>(pick(0, 3)));
    for (int& r : j.reduces) r = pick(1, 5);
  }
  std::stable_sort(jobs.begin(), jobs.end(),
                   [](const SlottedJob& a, const SlottedJob& b) { return a.arrival < b.arrival; });
  return jobs;
}

}  // namespace mr::model::testing
