#include "model/fluid/lower_bound.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>
#include <string>

namespace mr::model {
namespace {

std::vector<int> ArrivalOrder(std::span<const double> arrivals) {
  std::vector<int> order(arrivals.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return arrivals[a] < arrivals[b]; });
  return order;
}

}  // namespace

std::vector<double> SrptResponseTimes(std::span<const double> arrivals, std::span<const double> sizes) {
  const std::vector<int> order = ArrivalOrder(arrivals);
  std::vector<double> response(arrivals.size(), 0.0);
  // (remaining, rank in arrival order): the smallest remaining runs; ties go to
  // the earlier arrival.
  using Entry = std::pair<double, size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
  size_t next = 0;
  double t = 0;
  while (next < order.size() || !ready.empty()) {
    if (ready.empty()) t = std::max(t, arrivals[order[next]]);
    while (next < order.size() && arrivals[order[next]] <= t) {
      ready.push({sizes[order[next]], next});
      ++next;
    }
    auto [rem, rank] = ready.top();
    ready.pop();
    double next_arrival = next < order.size() ? arrivals[order[next]] : kInf;
    if (t + rem <= next_arrival) {
      t += rem;
      int id = order[rank];
      response[id] = t - arrivals[id];
    } else {
      ready.push({rem - (next_arrival - t), rank});
      t = next_arrival;
    }
  }
  return response;
}

Result<LowerBound> TandemLowerBound(std::span<const TandemJob> jobs) {
  std::vector<double> arrivals, xs, ys;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const TandemJob& j = jobs[i];
    if (!(std::isfinite(j.arrival) && j.arrival >= 0 && std::isfinite(j.x) && j.x > 0 &&
          std::isfinite(j.y) && j.y > 0)) {
      return Status::InvalidArgument("job " + std::to_string(i) +
                                     ": need arrival >= 0 and finite sizes x, y > 0");
    }
    arrivals.push_back(j.arrival);
    xs.push_back(j.x);
    ys.push_back(j.y);
  }
  const std::vector<double> ra = SrptResponseTimes(arrivals, xs);
  const std::vector<double> rb = SrptResponseTimes(arrivals, ys);

  // Both queues are work-conserving, so when each drains depends only on the
  // arrivals; a job arriving when both have drained opens a new period.
  LowerBound lb;
  double end_a = -kInf, end_b = -kInf, period_a = 0, period_b = 0;
  for (int id : ArrivalOrder(arrivals)) {
    double r = arrivals[id];
    if (r >= end_a && r >= end_b) {
      lb.total_response += std::max(period_a, period_b);
      period_a = period_b = 0;
      ++lb.periods;
    }
    end_a = std::max(end_a, r) + xs[id];
    end_b = std::max(end_b, r) + ys[id];
    period_a += ra[id];
    period_b += rb[id];
    lb.srpt_map_total += ra[id];
    lb.srpt_shuffle_total += rb[id];
  }
  lb.total_response += std::max(period_a, period_b);
  lb.mean_response = jobs.empty() ? 0.0 : lb.total_response / static_cast<double>(jobs.size());
  return lb;
}

}  // namespace mr::model
