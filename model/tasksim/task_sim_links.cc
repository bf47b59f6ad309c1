#include "model/tasksim/task_sim_links.h"

#include <algorithm>
#include <limits>

#include "model/tasksim/max_min_fair.h"
#include "model/tasksim/task_sim_receivers.h"

namespace mr::model::tasksim {

void ShuffleLinks::Compute(const SimState& state) {
  flows_.clear();
  if (receiver_links_) {
    ComputeTwoSided(state);
  } else {
    ComputeOneSided(state);
  }
}

void ShuffleLinks::ComputeOneSided(const SimState& state) {
  for (int w = 0; w < static_cast<int>(state.workers.size()); ++w) {
    const double cap = state.workers[w].spec.shuffle_bandwidth;
    double share_sum = 0;
    int zero_share = 0;
    for (size_t j : state.active) {
      const SimJob& job = state.jobs[j];
      if (!job.slow_start_reached || job.backlog[w] <= 0) continue;
      if (job.share > 0)
        share_sum += job.share;
      else
        ++zero_share;
    }
    for (size_t j : state.active) {
      const SimJob& job = state.jobs[j];
      if (!job.slow_start_reached || job.backlog[w] <= 0) continue;
      double rate =
          share_sum > 0 ? (job.share > 0 ? cap * job.share / share_sum : 0) : cap / zero_share;
      if (rate > 0) flows_.push_back({j, w, -1, rate});
    }
  }
}

namespace {

// One tier of the two-sided allocation: `flows` with their weights over resources 0..n-1
// (egress) and n..2n-1 (ingress) of `cap`; returns the rates and takes them off `cap`.
std::vector<double> FillTier(const std::vector<FairFlow>& flows, std::vector<double>& cap) {
  // The inputs are valid by construction (weights > 0, caps >= 0, two resources in range).
  std::vector<double> rates = MaxMinFair(flows, cap).value();
  for (size_t f = 0; f < flows.size(); ++f) {
    for (int r : flows[f].resources) cap[r] = std::max(0.0, cap[r] - rates[f]);
  }
  return rates;
}

}  // namespace

// A flow of job j from source s to receiver d weighs j's share times the part of j's backlog
// at s that goes to d: a job's flows from one source together weigh its share, as the
// source's limiter gives the job one share whatever the number of its reducers.
void ShuffleLinks::ComputeTwoSided(const SimState& state) {
  const int n = static_cast<int>(state.workers.size());
  std::vector<double> cap(2 * static_cast<size_t>(n));
  for (int w = 0; w < n; ++w) cap[w] = cap[n + w] = state.workers[w].spec.shuffle_bandwidth;
  std::vector<Flow> tier_flows[2];  // positive shares, then share 0
  std::vector<FairFlow> tier_fair[2];
  for (size_t j : state.active) {
    const SimJob& job = state.jobs[j];
    if (!job.slow_start_reached || job.pair_backlog.empty()) continue;
    const int tier = job.share > 0 ? 0 : 1;
    for (int s = 0; s < n; ++s) {
      if (job.backlog[s] <= 0) continue;
      for (int d = 0; d < n; ++d) {
        const double b = job.pair_backlog[static_cast<size_t>(s) * n + d];
        if (d == s || b <= 0) continue;
        const double weight = (tier == 0 ? job.share : 1.0) * b / job.backlog[s];
        tier_flows[tier].push_back({j, s, d, 0});
        tier_fair[tier].push_back({weight, {s, n + d}});
      }
    }
  }
  std::vector<double> rates = FillTier(tier_fair[0], cap);
  for (size_t f = 0; f < rates.size(); ++f) tier_flows[0][f].rate = rates[f];
  for (const Flow& f : tier_flows[0]) cap[n + f.receiver] = 0;  // closed to share-0 fetches
  rates = FillTier(tier_fair[1], cap);
  for (size_t f = 0; f < rates.size(); ++f) tier_flows[1][f].rate = rates[f];
  for (const std::vector<Flow>& tier : tier_flows) {
    for (const Flow& f : tier) {
      if (f.rate > 0) flows_.push_back(f);
    }
  }
}

double& ShuffleLinks::Backlog(SimJob& job, const Flow& f) {
  if (f.receiver < 0) return job.backlog[f.worker];
  return job.pair_backlog[static_cast<size_t>(f.worker) * job.backlog.size() + f.receiver];
}

double ShuffleLinks::Backlog(const SimJob& job, const Flow& f) {
  if (f.receiver < 0) return job.backlog[f.worker];
  return job.pair_backlog[static_cast<size_t>(f.worker) * job.backlog.size() + f.receiver];
}

double ShuffleLinks::NextDrain(const SimState& state) const {
  double next = std::numeric_limits<double>::infinity();
  for (const Flow& f : flows_) next = std::min(next, state.now + Backlog(state.jobs[f.job], f) / f.rate);
  return next;
}

double ShuffleLinks::Advance(SimState& state, double dt) const {
  const size_t n = state.workers.size();
  std::vector<double> load(2 * n, 0.0);  // egress, then ingress
  for (size_t i = 0; i < flows_.size(); ++i) {
    const Flow& f = flows_[i];
    SimJob& job = state.jobs[f.job];
    double& b = Backlog(job, f);
    double moved = f.rate * dt;
    // The flow that set this step's length drains exactly, whatever the rounding.
    if (moved >= b * (1 - 1e-12) || b - moved <= job.byte_eps) moved = b;
    b -= moved;
    job.fetched += moved;
    load[f.worker] += f.rate;
    if (f.receiver >= 0) {
      load[n + f.receiver] += f.rate;
      // A (job, source)'s flows are consecutive (ComputeTwoSided): its total is summed once,
      // after the last of them, not once per receiver.
      const bool last = i + 1 == flows_.size() || flows_[i + 1].job != f.job || flows_[i + 1].worker != f.worker;
      if (last) ResumBacklog(job, f.worker);
    }
  }
  double max_load = 0;
  for (size_t r = 0; r < load.size(); ++r)
    max_load = std::max(max_load, load[r] / state.workers[r % n].spec.shuffle_bandwidth);
  return max_load;
}

double ShuffleLinks::TotalRate() const {
  double sum = 0;
  for (const Flow& f : flows_) sum += f.rate;
  return sum;
}

}  // namespace mr::model::tasksim
