#include "scheduler/util/policy_util.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <numeric>

namespace mr::sched {

void ArrivalOrder(const Snapshot& snap, std::vector<int>* out) {
  std::vector<int>& order = *out;
  order.resize(snap.jobs.size());
  std::iota(order.begin(), order.end(), 0);
  auto earlier = [&](int a, int b) { return snap.jobs[a].submit_time < snap.jobs[b].submit_time; };
  if (!std::is_sorted(order.begin(), order.end(), earlier)) {
    std::stable_sort(order.begin(), order.end(), earlier);
  }
}

int FirstWithShuffleData(const Snapshot& snap, std::span<const int> order) {
  for (int j : order) {
    if (snap.jobs[j].shuffle_bytes_available > 0) return j;
  }
  return -1;
}

int FirstWithShuffleData(const Snapshot& snap, IncrementalOrder& order) {
  int found = -1;
  order.ForEachBlock([&] { return found < 0; },
                     [&](std::span<const int> block) { found = FirstWithShuffleData(snap, block); });
  return found;
}

void PlaceReduces(SlotFiller& filler, IncrementalOrder& order) {
  order.ForEachBlock([&] { return filler.free_reduce_slots() > 0; },
                     [&](std::span<const int> block) { filler.PlaceReduces(block); });
}

void FillInOrder(SlotFiller& filler, IncrementalOrder& order) {
  order.ForEachBlock([&] { return filler.free_map_slots() > 0; },
                     [&](std::span<const int> block) { filler.FillInOrder(block); });
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

void AddShares(std::vector<std::pair<JobId, double>>& pairs, ShareMap* out) {
  if (pairs.empty()) return;
  auto not_before = [](const auto& a, const auto& b) { return a.first >= b.first; };
  const bool increasing = std::adjacent_find(pairs.begin(), pairs.end(), not_before) == pairs.end();
  if (increasing && (out->empty() || out->rbegin()->first < pairs.front().first)) {
    // Already the map's order: append to its sorted sequence in one go.
    ShareMap::sequence_type seq = out->extract_sequence();
    seq.insert(seq.end(), pairs.begin(), pairs.end());
    out->adopt_sequence(boost::container::ordered_unique_range, std::move(seq));
    return;
  }
  auto by_id = [](const auto& a, const auto& b) { return a.first < b.first; };
  std::stable_sort(pairs.begin(), pairs.end(), by_id);
  out->reserve(out->size() + pairs.size());
  for (const auto& [id, share] : pairs) out->emplace_hint(out->end(), id, share);
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
