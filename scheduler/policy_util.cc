#include "scheduler/policy_util.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <numeric>

namespace mr::sched {

std::vector<int> ArrivalOrder(const Snapshot& snap) {
  std::vector<int> order(snap.jobs.size());
  std::iota(order.begin(), order.end(), 0);
  if (!std::is_sorted(order.begin(), order.end(), [&](int a, int b) {
        return snap.jobs[a].submit_time < snap.jobs[b].submit_time;
      })) {
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return snap.jobs[a].submit_time < snap.jobs[b].submit_time;
    });
  }
  return order;
}

std::vector<int> OrderByKey(std::span<const int> arrival, std::span<const double> key) {
  std::vector<std::pair<double, int>> tmp;  // (key, arrival position)
  tmp.reserve(arrival.size());
  for (size_t i = 0; i < arrival.size(); ++i) tmp.emplace_back(key[arrival[i]], static_cast<int>(i));
  std::sort(tmp.begin(), tmp.end());
  std::vector<int> order;
  order.reserve(tmp.size());
  for (const auto& [k, pos] : tmp) order.push_back(arrival[pos]);
  return order;
}

int FirstWithShuffleData(const Snapshot& snap, std::span<const int> order) {
  for (int j : order) {
    if (snap.jobs[j].shuffle_bytes_available > 0) return j;
  }
  return -1;
}

int GiveProbes(SlotFiller& filler, std::span<const int> order, std::span<const JobSize> sizes) {
  int probes = 0;
  for (int j : order) {
    if (filler.free_map_slots() == 0) break;
    const JobView& job = filler.snapshot().jobs[j];
    if (sizes[j].known || job.maps_running > 0 || job.maps_done > 0) continue;
    probes += filler.AssignMaps(j, 1);
  }
  return probes;
}

std::string Format(const char* fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  int n = std::vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  if (n < 0) return {};
  return std::string(buf, std::min<size_t>(static_cast<size_t>(n), sizeof(buf) - 1));
}

}  // namespace mr::sched
