#include "scheduler/flex/mps.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

namespace mr::flex {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// A job whose remaining work is within this fraction of its work finishes with the first.
constexpr double kFinishTolerance = 1e-9;

Status CheckOrder(std::span<const int> order, size_t n) {
  if (order.size() != n) {
    return Status::InvalidArgument("order has " + std::to_string(order.size()) + " entries for " +
                                   std::to_string(n) + " jobs");
  }
  std::vector<char> seen(n, 0);
  for (int j : order) {
    if (j < 0 || static_cast<size_t>(j) >= n || seen[j]) {
      return Status::InvalidArgument("order is not a permutation of the jobs (entry " +
                                     std::to_string(j) + ")");
    }
    seen[j] = 1;
  }
  return Status::Ok();
}

}  // namespace

bool PackState::Finished(int job) const { return completion[job] < kInf; }

Status CheckPackJobs(int slots, std::span<const PackJob> jobs) {
  if (slots < 1) return Status::InvalidArgument("slots must be >= 1, got " + std::to_string(slots));
  for (size_t j = 0; j < jobs.size(); ++j) {
    const PackJob& p = jobs[j];
    std::string who = "job " + std::to_string(j) + ": ";
    if (!std::isfinite(p.work) || p.work < 0) {
      return Status::InvalidArgument(who + "remaining work must be finite and >= 0");
    }
    if (p.min < 0) return Status::InvalidArgument(who + "minimum slots must be >= 0");
    if (p.max < p.min) {
      return Status::InvalidArgument(who + "maximum slots " + std::to_string(p.max) +
                                     " below minimum " + std::to_string(p.min));
    }
    if (p.work > 0 && p.max < 1) {
      return Status::InvalidArgument(who + "has work left but a maximum of 0 slots");
    }
  }
  return Status::Ok();
}

std::vector<int> NormalizeMinima(std::span<const int> minima, int slots) {
  std::vector<int> out(minima.begin(), minima.end());
  long long sum = std::accumulate(minima.begin(), minima.end(), 0LL);
  if (sum <= slots) return out;
  std::vector<double> frac(minima.size());
  long long given = 0;
  for (size_t j = 0; j < minima.size(); ++j) {
    double exact = static_cast<double>(minima[j]) * slots / static_cast<double>(sum);
    out[j] = static_cast<int>(std::floor(exact));
    frac[j] = exact - out[j];
    given += out[j];
  }
  std::vector<size_t> idx(minima.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return frac[a] > frac[b]; });
  for (size_t k = 0; given < slots && k < idx.size(); ++k, ++given) ++out[idx[k]];
  return out;
}

PackState StartPack(std::span<const PackJob> jobs, double start) {
  PackState s;
  s.time = start;
  s.remaining.resize(jobs.size());
  s.completion.assign(jobs.size(), kInf);
  for (size_t j = 0; j < jobs.size(); ++j) {
    s.remaining[j] = jobs[j].work;
    if (jobs[j].work > 0) {
      ++s.unfinished;
    } else {
      s.completion[j] = start;
    }
  }
  return s;
}

int FillByPriority(std::span<const PackJob> jobs, const PackState& state,
                   std::span<const int> priority, int slots, std::span<int> alloc) {
  int slack = slots;
  for (size_t j = 0; j < jobs.size(); ++j) {
    alloc[j] = state.Finished(static_cast<int>(j)) ? 0 : jobs[j].min;
    slack -= alloc[j];
  }
  for (int j : priority) {
    if (slack <= 0) break;
    if (state.Finished(j)) continue;
    int extra = std::min(slack, jobs[j].max - jobs[j].min);
    alloc[j] += extra;
    slack -= extra;
  }
  return slack;
}

Result<double> Advance(std::span<const PackJob> jobs, std::span<const double> rate,
                       PackState* state) {
  double dt = kInf;
  for (size_t j = 0; j < jobs.size(); ++j) {
    if (state->Finished(static_cast<int>(j)) || rate[j] <= 0) continue;
    dt = std::min(dt, state->remaining[j] / rate[j]);
  }
  if (dt == kInf) {
    return Status::Internal("packing stalled at t=" + std::to_string(state->time) + ": " +
                            std::to_string(state->unfinished) + " jobs left, none with slots");
  }
  state->time += dt;
  for (size_t j = 0; j < jobs.size(); ++j) {
    if (state->Finished(static_cast<int>(j)) || rate[j] <= 0) continue;
    double left = state->remaining[j] - rate[j] * dt;
    if (left <= kFinishTolerance * jobs[j].work) {
      state->remaining[j] = 0;
      state->completion[j] = state->time;
      --state->unfinished;
    } else {
      state->remaining[j] = left;
    }
  }
  return state->time;
}

Result<PackedSchedule> PackMalleable(int slots, double start, std::span<const PackJob> jobs,
                                     std::span<const int> order) {
  MR_RETURN_IF_ERROR(CheckPackJobs(slots, jobs));
  MR_RETURN_IF_ERROR(CheckOrder(order, jobs.size()));
  std::vector<int> minima(jobs.size());
  for (size_t j = 0; j < jobs.size(); ++j) minima[j] = jobs[j].min;
  minima = NormalizeMinima(minima, slots);
  std::vector<PackJob> norm(jobs.begin(), jobs.end());
  for (size_t j = 0; j < jobs.size(); ++j) norm[j].min = minima[j];

  PackState state = StartPack(norm, start);
  PackedSchedule out;
  std::vector<int> alloc(jobs.size());
  std::vector<double> rate(jobs.size());
  while (state.unfinished > 0) {
    FillByPriority(norm, state, order, slots, alloc);
    for (size_t j = 0; j < jobs.size(); ++j) rate[j] = alloc[j];
    Interval interval{state.time, 0, alloc};
    MR_ASSIGN_OR_RETURN(interval.end, Advance(norm, rate, &state));
    out.intervals.push_back(std::move(interval));
  }
  out.completion = std::move(state.completion);
  return out;
}

}  // namespace mr::flex
