// Finds job ids in a vector of (id, value) pairs sorted by id, for policies that keep
// per-job state between calls and look every snapshot job up in it. Queries usually come
// in increasing id order (a snapshot is in arrival order and the master's ids grow with
// arrival), so each lookup steps forward from where the last one ended (a few
// instructions) and falls back to a binary search when an id is not above the last.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <utility>

#include "scheduler/snapshot.h"

namespace mr::sched {

// Looks ids up in `sorted` (pairs sorted by id, borrowed; must outlive the cursor and not
// change). While the ids asked for increase, each lookup steps forward from the last one
// (O(size + lookups) for a whole snapshot); an id not above the last one is found by
// binary search. Not thread-safe.
template <typename V>
class IdCursor {
 public:
  explicit IdCursor(std::span<const std::pair<JobId, V>> sorted) : sorted_(sorted) {}
  // Index of `id` in the sorted pairs, or -1.
  int Find(JobId id) {
    if (started_ && id > last_) {
      while (at_ < sorted_.size() && sorted_[at_].first < id) ++at_;
    } else {
      auto it = std::lower_bound(sorted_.begin(), sorted_.end(), id,
                                 [](const std::pair<JobId, V>& e, JobId v) { return e.first < v; });
      at_ = static_cast<size_t>(it - sorted_.begin());
    }
    started_ = true;
    last_ = id;
    return at_ < sorted_.size() && sorted_[at_].first == id ? static_cast<int>(at_) : -1;
  }

 private:
  std::span<const std::pair<JobId, V>> sorted_;
  size_t at_ = 0;  // lower bound of last_ in sorted_
  JobId last_ = 0;
  bool started_ = false;
};

}  // namespace mr::sched
