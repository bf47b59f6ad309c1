// The instances of the FLEX paper's simulation ("FLEX: A Slot Allocation Scheduling Optimizer
// for MapReduce Workloads", section 4.1): J jobs arriving together on S slots, bimodal work,
// maxima from slot demand, minima from a slack parameter, weights, deadlines and SLA steps
// uniform. Where the paper leaves a number open, the choice is a field here and is stated in
// docs/flex.md ("The simulation"). Deterministic for a seed; thread-compatible.
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "scheduler/flex/problem.h"

namespace mr::model {

struct FlexWorkloadOptions {
  int jobs = 10;             // J
  int slots = 100;           // S
  double small_share = 0.8;  // fraction of the J jobs drawn from the small mode (rounded)
  double slack = 0.75;       // target share of S left after the minima: mean minimum (1-slack)S/J
  // Total work of an instance, in tasks of one time unit each (so a job's slot demand, its
  // maximum before the cap at S, is its work rounded up).
  double total_tasks = 3000;
  // Deadlines and SLA pseudo-deadlines are uniform on (0, deadline_scale * total_tasks / S):
  // the scale times the least possible makespan.
  double deadline_scale = 1.0;
  int sla_steps = 3;
  flex::Metric metric = flex::Metric::kResponseTime;
  uint64_t seed = 1;
};

// InvalidArgument naming the bad field: jobs >= 1, slots >= 1, 0 <= small_share <= 1,
// 0 <= slack <= 1, total_tasks > 0, deadline_scale > 0, sla_steps >= 1.
Status CheckFlexWorkload(const FlexWorkloadOptions& options);

// Instance `index` (0-based) of the options' sequence: the same (seed, index) always gives the
// same instance, whatever the number of instances asked for. Jobs in arrival order (a random
// order of the small and large ones), all arriving at time 0, every job with the options'
// metric and every term set (weight, deadline, SLA steps, time alone = work / maximum).
// REQUIRES: CheckFlexWorkload(options).ok().
flex::FlexProblem MakeFlexInstance(const FlexWorkloadOptions& options, int index);

}  // namespace mr::model
