#include "scheduler/water_fill.h"

#include <algorithm>
#include <utility>

namespace mr::sched {
namespace {

constexpr double kMinWeight = 1e-9;

struct Norm {
  double w, lo, hi;
};

std::vector<Norm> Normalise(std::span<const FairItem> items, double* sum_lo, double* sum_hi) {
  std::vector<Norm> v;
  v.reserve(items.size());
  *sum_lo = *sum_hi = 0;
  for (const FairItem& it : items) {
    double hi = std::max(0.0, it.cap);
    double lo = std::clamp(it.min, 0.0, hi);
    v.push_back({std::max(it.weight, kMinWeight), lo, hi});
    *sum_lo += lo;
    *sum_hi += hi;
  }
  return v;
}

// Smallest L with sum clamp(w*L, lo, hi) == target, by a sweep over the
// breakpoints where an item starts (lo/w) or stops (hi/w) growing. Items with
// lo == 0 grow from L = 0, so only their stop is an event (halves the sort in
// the common no-minimum case).
double SolveLevel(const std::vector<Norm>& v, double sum_lo, double target) {
  std::vector<std::pair<double, int>> events;  // (level, item*2 + is_stop)
  events.reserve(v.size() * 2);
  double constant = sum_lo, slope = 0;  // value(L) = constant + slope * L
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i].lo > 0) {
      events.emplace_back(v[i].lo / v[i].w, static_cast<int>(i * 2));
    } else {
      slope += v[i].w;
    }
    events.emplace_back(v[i].hi / v[i].w, static_cast<int>(i * 2 + 1));
  }
  std::sort(events.begin(), events.end());
  for (const auto& [level, code] : events) {
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
  double sum_lo = 0, sum_hi = 0;
  std::vector<Norm> v = Normalise(items, &sum_lo, &sum_hi);
  std::vector<double> out(v.size(), 0.0);
  capacity = std::max(0.0, capacity);
  if (v.empty()) return out;
  if (sum_lo >= capacity) {
    double scale = sum_lo > 0 ? capacity / sum_lo : 0;
    for (size_t i = 0; i < v.size(); ++i) out[i] = v[i].lo * scale;
    return out;
  }
  if (sum_hi <= capacity) {
    for (size_t i = 0; i < v.size(); ++i) out[i] = v[i].hi;
    return out;
  }
  double level = SolveLevel(v, sum_lo, capacity);
  for (size_t i = 0; i < v.size(); ++i) out[i] = std::clamp(v[i].w * level, v[i].lo, v[i].hi);
  return out;
}

}  // namespace mr::sched
