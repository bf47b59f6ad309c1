// Batch orders and plans in experiments (docs/makespan.md, "Batch orders in experiments"):
// an experiment's `johnson` and `reverse-johnson` runs play the batch under fifo with the
// jobs submitted in the makespan planner's order; its `balancedpools` run plays BalancedPools'
// plan on the capacity policy, each pool a queue with the plan's slots and each job submitted
// to its pool's queue in the pool's Johnson order; its `alone` runs submit the jobs one at a
// time, each once the one before has ended (every job alone on the cluster: ARIA's own
// setting for its stage estimates). Pure; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "experiment/experiment.h"
#include "experiment/workload_import.h"

namespace mr::experiment {

// How far apart the ordered jobs arrive (seconds): enough for the master to see them in
// order, nothing next to a job's seconds.
inline constexpr double kBatchOrderStagger = 0.001;

// johnson, reverse-johnson, balancedpools, alone.
bool IsBatchOrder(std::string_view name);

// The positions of `jobs` in `order` ("johnson" or "reverse-johnson"): Johnson's rule on
// each job's ARIA stage estimates (its maps and reduces of its task seconds) on the
// cluster's map and reduce slots (unified slots count as both). InvalidArgument for another
// order or a job list that is not a batch (an arrival other than 0).
Result<std::vector<int>> BatchOrder(const JobList& jobs, const ClusterShape& shape, const std::string& order);

// `jobs` with the arrival of the job at position p of BatchOrder set to p ×
// kBatchOrderStagger, so that the runner submits them in that order; `jobs` itself when
// `order` is empty. The jobs keep their indices (results name the same jobs).
Result<JobList> OrderedBatch(const JobList& jobs, const ClusterShape& shape, const std::string& order);

// A batch order or plan as an experiment runs it.
struct PlannedBatch {
  // The jobs, their arrivals staggered in run order (kBatchOrderStagger apart; the two pools'
  // orders interleaved) and, for balancedpools with two pools, each job's queue ("small",
  // "large"); same indices as the workload's.
  JobList jobs;
  // balancedpools with two pools: the capacity queues file giving each pool its slots
  // (`queue small map_slots=K reduce_slots=R`, ...); "" otherwise (one pool: the queue
  // "default" with every slot, i.e. fifo).
  std::string queues;
  // The planner's own prediction (model/makespan/batch_sim.h, its list-scheduling simulator
  // on the jobs' task seconds): this order's or plan's makespan, and Johnson's on the whole
  // cluster for contrast, in seconds.
  double planner_makespan = 0;
  double johnson_makespan = 0;
  std::string pools;  // "small 5+5 slots: 3,1; large 11+11 slots: 0,2" (job indices) or "one pool"
};

// `jobs` (in the workload's order) with each arrival set where the one before is predicted to
// end: the sum of the `responses` before it. For `alone`, so that the prediction and the
// makespan read the run as it is played (PlayMode::kOneAtATime). REQUIRES: sizes equal.
JobList ChainedArrivals(const JobList& jobs, const std::vector<double>& responses);

// `order` is "", johnson, reverse-johnson, balancedpools or alone; "" returns `jobs` unchanged
// with no prediction. alone: the jobs in the workload's order, their arrivals staggered, the
// planner's makespan the sum of each job's alone on the whole cluster. InvalidArgument as
// BatchOrder.
Result<PlannedBatch> PlanBatch(const JobList& jobs, const ClusterShape& shape, const std::string& order);

// A plan's prediction as the lines "planner_makespan=..", "johnson_makespan=..", "pools=.."
// (DIR/plans/LABEL.plan), and back (InvalidArgument for a missing or malformed line).
std::string PlannedBatchText(const PlannedBatch& plan);
Result<PlannedBatch> ParsePlannedBatchText(std::string_view text);

}  // namespace mr::experiment
