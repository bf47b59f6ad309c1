// FLEX's allocation for one epoch and one pool of slots ("FLEX: A Slot Allocation Scheduling
// Optimizer for MapReduce Workloads", section 3): normalise the minima, build candidate
// priority orders (the generic RAP order, then the metric-specific orders of every metric
// present), pack each with the Malleable Packing Scheme, and keep the schedule with the least
// objective (CombinedObjective: the metric, or the documented mix). The caller enforces the
// first interval's allocation until the next epoch and runs one Allocate per pool (map slots,
// reduce slots, or a cluster's unified slots). Stateless; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "scheduler/flex/mps.h"
#include "scheduler/flex/orders.h"
#include "scheduler/flex/problem.h"

namespace mr::flex {

struct FlexOptions {
  bool generic_order = true;    // try the RAP order
  bool specific_orders = true;  // try the orders MetricInfo::orders lists
  StepSolver step_solver = StepSolver::kBreakpoints;
  // Rounds of adjacent swaps tried on the best order, each kept if it lowers the objective
  // (a local search the paper does not describe; 0 = off). Each round packs J-1 orders.
  int swap_rounds = 0;
};

struct OrderTrial {
  std::string name;  // OrderName() or kGenericOrderName
  double value = 0;  // the objective of its packed schedule
};

struct FlexDecision {
  // The first interval's slots per job (input index): what the assignment layer enforces
  // until the next epoch. Each unfinished job gets at least its (normalised) minimum and at
  // most its maximum; the sum is min(S, sum of the unfinished jobs' maxima). Jobs with no
  // remaining work get 0.
  std::vector<int> allocation;
  PackedSchedule schedule;  // the whole predicted malleable schedule
  std::vector<int> order;   // the winning priority order
  std::string order_name;   // its name ("generic-rap", "shortest-at-max", ...)
  double predicted = 0;     // the objective of `schedule`
  std::vector<int> minima;  // the minima used (after normalisation)
  bool minima_normalised = false;
  std::vector<OrderTrial> trials;  // every order packed, in the order tried
};

// InvalidArgument from CheckProblem for bad input, or when `options` enables no order.
// With no unfinished job the decision has an empty schedule, all-zero allocation and
// predicted value CombinedObjective at completion = now.
Result<FlexDecision> Allocate(const FlexProblem& problem, const FlexOptions& options = {});

}  // namespace mr::flex
