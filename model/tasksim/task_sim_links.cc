#include "model/tasksim/task_sim_links.h"

#include <algorithm>
#include <limits>

namespace mr::model::tasksim {

void ShuffleLinks::Compute(const SimState& state) {
  flows_.clear();
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
      if (rate > 0) flows_.push_back({j, w, rate});
    }
  }
}

double ShuffleLinks::NextDrain(const SimState& state) const {
  double next = std::numeric_limits<double>::infinity();
  for (const Flow& f : flows_)
    next = std::min(next, state.now + state.jobs[f.job].backlog[f.worker] / f.rate);
  return next;
}

double ShuffleLinks::Advance(SimState& state, double dt) const {
  std::vector<double> load(state.workers.size(), 0.0);
  for (const Flow& f : flows_) {
    SimJob& job = state.jobs[f.job];
    double& b = job.backlog[f.worker];
    double moved = f.rate * dt;
    // The flow that set this step's length drains exactly, whatever the rounding.
    if (moved >= b * (1 - 1e-12) || b - moved <= job.byte_eps) moved = b;
    b -= moved;
    job.fetched += moved;
    load[f.worker] += f.rate;
  }
  double max_load = 0;
  for (size_t w = 0; w < load.size(); ++w)
    max_load = std::max(max_load, load[w] / state.workers[w].spec.shuffle_bandwidth);
  return max_load;
}

double ShuffleLinks::TotalRate() const {
  double sum = 0;
  for (const Flow& f : flows_) sum += f.rate;
  return sum;
}

}  // namespace mr::model::tasksim
