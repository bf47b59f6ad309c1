// Finds job ids in a vector of (id, value) pairs sorted by id, for policies that keep
// per-job state between calls and look every snapshot job up in it. Queries usually come
// in increasing id order (a snapshot is in arrival order and the master's ids grow with
// arrival), so each lookup first steps forward from where the last one ended and falls
// back to a binary search. Thread-safe apart from the cursor passed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <utility>

#include "scheduler/snapshot.h"

namespace mr::sched {

// Index of `id` in `sorted`, or -1. `*cursor` (start at 0) remembers where to look next.
template <typename V>
int FindId(std::span<const std::pair<JobId, V>> sorted, JobId id, size_t* cursor) {
  size_t i = *cursor;
  for (int steps = 0; i < sorted.size() && sorted[i].first < id && steps < 4; ++steps) ++i;
  if (i >= sorted.size() || sorted[i].first > id || (i > 0 && sorted[i - 1].first >= id)) {
    auto it = std::lower_bound(sorted.begin(), sorted.end(), id,
                               [](const std::pair<JobId, V>& e, JobId v) { return e.first < v; });
    i = static_cast<size_t>(it - sorted.begin());
  } else if (sorted[i].first < id) {
    auto it = std::lower_bound(sorted.begin() + static_cast<std::ptrdiff_t>(i), sorted.end(), id,
                               [](const std::pair<JobId, V>& e, JobId v) { return e.first < v; });
    i = static_cast<size_t>(it - sorted.begin());
  }
  *cursor = i;
  return i < sorted.size() && sorted[i].first == id ? static_cast<int>(i) : -1;
}

}  // namespace mr::sched
