#include "scheduler/policies/virtual_srpt.h"

#include <algorithm>
#include <cmath>

#include "scheduler/util/id_lookup.h"

namespace mr::sched {
namespace {

// Work below this many slot-seconds is done: sums of doubles leave dust.
constexpr double kDust = 1e-9;

void Refresh(const SizeEstimate& e, VirtualSrpt::Work* w) {
  const bool map_known = e.source != EstimateSource::kNone;
  if (map_known && w->map_known) {
    w->map = std::max(0.0, w->map + e.map_seconds_total - w->map_total);
  } else if (map_known) {
    w->map = std::max(0.0, e.map_seconds_remaining);
  }
  w->map_known = map_known;
  w->map_total = map_known ? e.map_seconds_total : 0;
  const bool reduce_known = e.reduce_source != EstimateSource::kNone;
  if (reduce_known && w->reduce_known) {
    w->reduce = std::max(0.0, w->reduce + e.reduce_seconds_total - w->reduce_total);
  } else if (reduce_known) {
    w->reduce = std::max(0.0, e.reduce_seconds_remaining);
  }
  w->reduce_known = reduce_known;
  w->reduce_total = reduce_known ? e.reduce_seconds_total : 0;
}

}  // namespace

void VirtualSrpt::Sync(const Snapshot& snap) {
  next_.clear();
  next_.reserve(snap.jobs.size());
  seen_.assign(work_.size(), 0);
  IdCursor<size_t> cursor(at_);
  for (const JobView& job : snap.jobs) {
    const int at = cursor.Find(job.id);
    Work w;
    if (at >= 0) {
      seen_[at_[at].second] = 1;
      w = work_[at_[at].second];
    } else {
      w.id = job.id;
      w.arrival = arrivals_++;
    }
    w.map_load = 0;
    Refresh(job.estimate, &w);
    next_.push_back(w);
  }
  // The paper's S is SRPT over the arrival sequence: a job whose real counterpart has left
  // keeps competing for the virtual machines until its virtual work is done.
  if (membership_ == Membership::kArrivals) {
    for (size_t i = 0; i < work_.size(); ++i) {
      if (seen_[i] || work_[i].map + work_[i].reduce <= kDust) continue;
      next_.push_back(work_[i]);
      next_.back().map_load = 0;
    }
  }
  work_.swap(next_);
  at_.clear();
  for (size_t i = 0; i < work_.size(); ++i) at_.emplace_back(work_[i].id, i);
  if (!std::is_sorted(at_.begin(), at_.end())) std::sort(at_.begin(), at_.end());
}

bool VirtualSrpt::Advance(int machines, double round) {
  order_.clear();
  for (size_t i = 0; i < work_.size(); ++i) {
    Work& w = work_[i];
    w.map_load = 0;
    const double total = w.map + w.reduce;
    if (total > kDust) order_.push_back({total, w.arrival, static_cast<uint32_t>(i)});
  }
  if (order_.empty() || machines <= 0) return false;
  // Every job served takes at least one machine, so only the first `machines` matter:
  // select them in linear time, then sort just those.
  auto smaller = [](const Key& a, const Key& b) {
    if (a.total != b.total) return a.total < b.total;
    return a.arrival < b.arrival;
  };
  const size_t head = std::min(order_.size(), static_cast<size_t>(machines));
  if (head < order_.size()) {
    std::nth_element(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(head), order_.end(),
                     smaller);
  }
  std::sort(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(head), smaller);
  int left = machines;
  for (size_t k = 0; k < head && left > 0; ++k) {
    Work& w = work_[order_[k].index];
    const double total = order_[k].total;
    const int need = static_cast<int>(std::ceil(total / round - kDust));
    const int got = std::clamp(need, 1, left);
    left -= got;
    const double done = std::min(total, got * round);
    const double map_done = std::min(w.map, done);
    w.map_load = map_done > kDust ? static_cast<int>(std::ceil(map_done / round - kDust)) : 0;
    w.map -= map_done;
    w.reduce = std::max(0.0, w.reduce - (done - map_done));
    if (w.map < kDust) w.map = 0;
    if (w.reduce < kDust) w.reduce = 0;
  }
  return true;
}

}  // namespace mr::sched
