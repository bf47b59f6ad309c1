#include "scheduler/util/water_fill.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

namespace mr::sched {
namespace {

constexpr double kMinWeight = 1e-9;

using Norm = WaterFillScratch::Norm;

void Normalise(std::span<const FairItem> items, std::vector<Norm>* v, double* sum_lo,
               double* sum_hi) {
  v->clear();
  *sum_lo = *sum_hi = 0;
  for (const FairItem& it : items) {
    double hi = std::max(0.0, it.cap);
    double lo = std::clamp(it.min, 0.0, hi);
    v->push_back({std::max(it.weight, kMinWeight), lo, hi});
    *sum_lo += lo;
    *sum_hi += hi;
  }
}

// Sorts events [sorted, end) far enough to extend the sorted prefix, in place:
// first only the smallest event (the sweep most often stops there), then
// blocks of four times the prefix (nth_element, then a sort of the block).
// Returns the new prefix length.
size_t SortMore(std::vector<std::pair<double, int>>& events, size_t sorted) {
  if (sorted == 0) {
    std::iter_swap(events.begin(), std::min_element(events.begin(), events.end()));
    return 1;
  }
  constexpr size_t kFirstBlock = 16;
  size_t target = std::max(kFirstBlock, 4 * sorted);
  if (2 * target >= events.size()) target = events.size();
  auto first = events.begin() + static_cast<std::ptrdiff_t>(sorted);
  auto mid = events.begin() + static_cast<std::ptrdiff_t>(target);
  if (mid != events.end()) std::nth_element(first, mid, events.end());
  std::sort(first, mid);
  return target;
}

// Smallest L with sum clamp(w*L, lo, hi) == target, by a sweep over the
// breakpoints where an item starts (lo/w) or stops (hi/w) growing. Items with
// lo == 0 grow from L = 0, so only their stop is an event (halves the events
// in the common no-minimum case). The sweep usually stops after a few events
// (the level lies below most caps), so the events are sorted a block at a time
// as the sweep reaches them; codes are unique, so the order is the full sort's.
// A NaN breakpoint has no place in a strict order: then everything is sorted
// up front, as before.
double SolveLevel(const std::vector<Norm>& v, double sum_lo, double target,
                  std::vector<std::pair<double, int>>* events_buf) {
  std::vector<std::pair<double, int>>& events = *events_buf;
  events.clear();
  double constant = sum_lo, slope = 0;  // value(L) = constant + slope * L
  bool any_nan = false;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i].lo > 0) {
      events.emplace_back(v[i].lo / v[i].w, static_cast<int>(i * 2));
      any_nan = any_nan || std::isnan(events.back().first);
    } else {
      slope += v[i].w;
    }
    events.emplace_back(v[i].hi / v[i].w, static_cast<int>(i * 2 + 1));
    any_nan = any_nan || std::isnan(events.back().first);
  }
  size_t sorted = 0;
  if (any_nan) {
    std::sort(events.begin(), events.end());
    sorted = events.size();
  }
  for (size_t e = 0; e < events.size(); ++e) {
    if (e == sorted) sorted = SortMore(events, sorted);
    const auto [level, code] = events[e];
    if (slope > 0 && constant + slope * level >= target) return (target - constant) / slope;
    const Norm& n = v[code / 2];
    if (code % 2 == 0) {
      slope += n.w;
      constant -= n.lo;
    } else {
      slope -= n.w;
      constant += n.hi;
    }
  }
  return events.empty() ? 0 : events.back().first;
}

}  // namespace

std::vector<double> WaterFill(std::span<const FairItem> items, double capacity) {
  std::vector<double> out;
  WaterFillScratch scratch;
  WaterFill(items, capacity, &out, &scratch);
  return out;
}

void WaterFill(std::span<const FairItem> items, double capacity, std::vector<double>* out_buf,
               WaterFillScratch* scratch) {
  double sum_lo = 0, sum_hi = 0;
  std::vector<Norm>& v = scratch->norm;
  Normalise(items, &v, &sum_lo, &sum_hi);
  std::vector<double>& out = *out_buf;
  out.assign(v.size(), 0.0);
  capacity = std::max(0.0, capacity);
  if (v.empty()) return;
  if (sum_lo >= capacity) {
    double scale = sum_lo > 0 ? capacity / sum_lo : 0;
    for (size_t i = 0; i < v.size(); ++i) out[i] = v[i].lo * scale;
    return;
  }
  if (sum_hi <= capacity) {
    for (size_t i = 0; i < v.size(); ++i) out[i] = v[i].hi;
    return;
  }
  double level = SolveLevel(v, sum_lo, capacity, &scratch->events);
  for (size_t i = 0; i < v.size(); ++i) out[i] = std::clamp(v[i].w * level, v[i].lo, v[i].hi);
}

}  // namespace mr::sched
