#include "model/makespan/johnson.h"

#include <algorithm>
#include <numeric>

namespace mr::model {

std::vector<int> JohnsonOrder(std::span<const StagePair> jobs) {
  const int n = static_cast<int>(jobs.size());
  std::vector<int> list(n);
  std::iota(list.begin(), list.end(), 0);
  std::stable_sort(list.begin(), list.end(), [&](int a, int b) {
    return std::min(jobs[a].map, jobs[a].reduce) < std::min(jobs[b].map, jobs[b].reduce);
  });
  std::vector<int> schedule(n);
  int head = 0, tail = n - 1;
  for (int i : list) {
    if (jobs[i].map <= jobs[i].reduce) {
      schedule[head++] = i;
    } else {
      schedule[tail--] = i;
    }
  }
  return schedule;
}

std::vector<int> Reversed(std::span<const int> order) { return std::vector<int>(order.rbegin(), order.rend()); }

std::vector<int> ArrivalOrder(int n) {
  std::vector<int> out(n);
  std::iota(out.begin(), out.end(), 0);
  return out;
}

double TwoStageMakespan(std::span<const StagePair> jobs, std::span<const int> order) {
  double map_end = 0, reduce_end = 0;
  for (int i : order) {
    map_end += jobs[i].map;
    reduce_end = std::max(reduce_end, map_end) + jobs[i].reduce;
  }
  return std::max(map_end, reduce_end);
}

}  // namespace mr::model
