// The paper's lower bound on total response time in the overlapping tandem
// queue (the overlapping-phases paper §5.1, docs/model.md): SRPT on two single-server queues A
// (sizes x_i) and B (sizes y_i) with the same arrivals; time is split at the
// instants when both are idle, and each such period contributes the larger of
// A's and B's total response time. No policy can beat it. Pure functions.
#pragma once

#include <span>
#include <vector>

#include "common/status.h"
#include "model/fluid/tandem_sim.h"

namespace mr::model {

struct LowerBound {
  double total_response = 0;  // the bound on the sum of response times
  double mean_response = 0;
  int periods = 0;            // joint busy periods
  double srpt_map_total = 0;  // SRPT total response of queue A alone
  double srpt_shuffle_total = 0;
};

// Response time of each job under preemptive SRPT on one unit-speed server
// (ties by arrival, then index). Same length and order as the inputs.
// REQUIRES arrivals.size() == sizes.size(), sizes > 0.
std::vector<double> SrptResponseTimes(std::span<const double> arrivals, std::span<const double> sizes);

// InvalidArgument for the same malformed jobs SimulateTandem rejects.
Result<LowerBound> TandemLowerBound(std::span<const TandemJob> jobs);

}  // namespace mr::model
