// Sorting a sequence that is mostly in order already, for policies that re-rank every job
// each round while only a few jobs' keys moved since the last one (asrpt's order by
// available workload: a job's key changes only while it runs or its estimate moves).
// The caller lists the elements in last round's order, moved ones anywhere (the end is
// best); SortMostlySorted keeps the longest-so-far ascending run in one pass, sorts only
// the elements that break it, and merges the two: O(n + r log r) for r out of place,
// against O(n log n) for a full sort. With a strict TOTAL order (no two elements
// equivalent) the result is exactly std::sort's, whatever the input order. Thread-safe.
#pragma once

#include <algorithm>
#include <vector>

namespace mr::sched {

// Sorts `*seq` by `less`, in place; `*run` and `*rest` are scratch (no allocation once
// they have grown). `less` must be a strict weak order; the result equals std::sort's
// when it is total.
template <typename T, typename Less>
void SortMostlySorted(std::vector<T>* seq, Less less, std::vector<T>* run, std::vector<T>* rest) {
  run->clear();
  rest->clear();
  for (const T& e : *seq) {
    if (run->empty() || less(run->back(), e)) {
      run->push_back(e);
    } else {
      rest->push_back(e);
    }
  }
  if (rest->empty()) return;  // already sorted
  std::sort(rest->begin(), rest->end(), less);
  std::merge(run->begin(), run->end(), rest->begin(), rest->end(), seq->begin(), less);
}

}  // namespace mr::sched
