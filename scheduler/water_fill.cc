#include "scheduler/water_fill.h"

#include <algorithm>
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

// Smallest L with sum clamp(w*L, lo, hi) == target, by a sweep over the
// breakpoints where an item starts (lo/w) or stops (hi/w) growing. Items with
// lo == 0 grow from L = 0, so only their stop is an event (halves the sort in
// the common no-minimum case).
double SolveLevel(const std::vector<Norm>& v, double sum_lo, double target,
                  std::vector<std::pair<double, int>>* events_buf) {
  std::vector<std::pair<double, int>>& events = *events_buf;
  events.clear();
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
