#include "model/tasksim/max_min_fair.h"

#include <cmath>
#include <limits>
#include <string>

namespace mr::model {
namespace {

Status Validate(const std::vector<FairFlow>& flows, const std::vector<double>& capacity) {
  for (double c : capacity) {
    if (!(c >= 0) || !std::isfinite(c)) return Status::InvalidArgument("a capacity must be finite and >= 0");
  }
  for (size_t f = 0; f < flows.size(); ++f) {
    const FairFlow& flow = flows[f];
    if (!(flow.weight >= 0) || !std::isfinite(flow.weight)) {
      return Status::InvalidArgument("flow " + std::to_string(f) + ": weight must be finite and >= 0");
    }
    if (flow.weight > 0 && flow.resources.empty()) {
      return Status::InvalidArgument("flow " + std::to_string(f) + " crosses no resource: its rate is unbounded");
    }
    for (int r : flow.resources) {
      if (r < 0 || static_cast<size_t>(r) >= capacity.size()) {
        return Status::InvalidArgument("flow " + std::to_string(f) + ": resource " + std::to_string(r) + " out of range");
      }
    }
  }
  return Status::Ok();
}

// The level increment at which the first resource crossed by an active flow fills.
double NextStep(const std::vector<double>& load, const std::vector<double>& left) {
  double step = std::numeric_limits<double>::infinity();
  for (size_t r = 0; r < load.size(); ++r) {
    if (load[r] > 0) step = std::min(step, left[r] / load[r]);
  }
  return step;
}

}  // namespace

Result<std::vector<double>> MaxMinFair(const std::vector<FairFlow>& flows,
                                       const std::vector<double>& capacity) {
  MR_RETURN_IF_ERROR(Validate(flows, capacity));
  std::vector<double> rate(flows.size(), 0.0), left = capacity;
  std::vector<bool> active(flows.size());
  size_t n_active = 0;
  for (size_t f = 0; f < flows.size(); ++f) n_active += (active[f] = flows[f].weight > 0);
  while (n_active > 0) {
    std::vector<double> load(capacity.size(), 0.0);  // sum of the active flows' weights
    for (size_t f = 0; f < flows.size(); ++f) {
      if (active[f]) {
        for (int r : flows[f].resources) load[r] += flows[f].weight;
      }
    }
    const double step = NextStep(load, left);
    std::vector<bool> full(capacity.size(), false);
    for (size_t r = 0; r < capacity.size(); ++r) {
      if (load[r] <= 0) continue;
      left[r] -= step * load[r];
      // The resource that set the step fills exactly, whatever the rounding.
      if (left[r] <= 1e-12 * capacity[r]) {
        left[r] = 0;
        full[r] = true;
      }
    }
    for (size_t f = 0; f < flows.size(); ++f) {
      if (!active[f]) continue;
      rate[f] += step * flows[f].weight;
      for (int r : flows[f].resources) {
        if (full[r]) {
          active[f] = false;
          --n_active;
          break;
        }
      }
    }
  }
  return rate;
}

}  // namespace mr::model
