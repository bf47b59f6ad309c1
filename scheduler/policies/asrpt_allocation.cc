#include "scheduler/policies/asrpt_allocation.h"

#include <algorithm>

namespace mr::sched {

int AllocateAsrpt(std::span<const AsrptJob> jobs, int machines, std::vector<int>* alloc) {
  alloc->assign(jobs.size(), 0);
  std::vector<int>& a = *alloc;
  // Lines 3-7: the running reduces keep their machines.
  int d = machines;
  for (size_t i = 0; i < jobs.size(); ++i) {
    a[i] = jobs[i].kept;
    d -= jobs[i].kept;
  }
  d = std::max(d, 0);
  // Schedulable tasks not yet given a machine ("update status of job i", line 23).
  std::vector<int> left(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) left[i] = std::max(0, jobs[i].schedulable);
  auto give = [&](size_t i, int want) {
    const int n = std::min({want, left[i], d});
    if (n <= 0) return;
    a[i] += n;
    left[i] -= n;
    d -= n;
  };
  for (size_t i = 0; i < jobs.size() && d > 0; ++i) {
    if (jobs[i].map_phase && jobs[i].probe) give(i, 1);
  }
  // Lines 8-26: the map work the virtual SRPT schedule runs this slot.
  for (size_t i = 0; i < jobs.size() && d > 0; ++i) {
    if (jobs[i].map_phase && jobs[i].map_load > 0) give(i, jobs[i].map_load);
  }
  // Lines 27-39: available reduce work.
  for (size_t i = 0; i < jobs.size() && d > 0; ++i) {
    if (!jobs[i].map_phase) give(i, left[i]);
  }
  // Lines 40-51: the remaining map tasks.
  for (size_t i = 0; i < jobs.size() && d > 0; ++i) {
    if (jobs[i].map_phase) give(i, left[i]);
  }
  return d;
}

}  // namespace mr::sched
