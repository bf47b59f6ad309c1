// Weighted max-min fair allocation of shared resources among flows: the progressive
// filling of Bertsekas and Gallager's "Data Networks", 6.5.2. Every flow f with weight
// w_f > 0 starts at rate 0; a common level t rises and every flow not yet frozen runs at
// w_f x t; when the flows crossing a resource reach its capacity the resource is full and
// every flow crossing it freezes at its rate; the others go on rising until every flow is
// frozen. The result is the allocation in which no flow's rate can grow without lowering the
// rate of a flow whose rate/weight is no larger (weighted max-min fairness). A flow of weight
// 0 gets 0. The task-level simulator's shuffle links on shaped hosts use it
// (model/tasksim/task_sim_links.h); bench/policies/fair_rates.py is the same allocation in
// Python. Pure function.
#pragma once

#include <vector>

#include "common/status.h"

namespace mr::model {

struct FairFlow {
  double weight = 1;           // >= 0
  std::vector<int> resources;  // indices into the capacities; at least one when weight > 0
};

// Rate per flow (in `flows`' order) for resources of `capacity` (each >= 0, same unit as
// the rates). InvalidArgument for a negative or non-finite weight or capacity, a resource
// index out of range, or a flow of positive weight that crosses no resource (its rate would be
// unbounded).
Result<std::vector<double>> MaxMinFair(const std::vector<FairFlow>& flows,
                                       const std::vector<double>& capacity);

}  // namespace mr::model
