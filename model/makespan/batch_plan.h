// The batch planner (`mr batch plan`; docs/makespan.md, "The planner"): a batch of jobs and a
// cluster shape in; Johnson's order, BalancedPools' pools and the predicted makespans out,
// with reverse Johnson's and FIFO's for contrast, as text and as a plan file. The plan file
// (JSON, "Plan file" in the docs) holds what a later `mr batch run PLAN` needs: every job's
// tasks, the order, the pools with their slots and shares, and the cluster shape it was
// computed for, which CheckPlanCluster compares with the cluster it is run on. Pure
// functions but RunBatchPlan (reads the jobs file, writes the plan file); thread-safe.
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "model/makespan/balanced_pools.h"
#include "model/makespan/batch_sim.h"
#include "model/makespan/makespan_workloads.h"

namespace mr::model {

// The cluster a plan is for: its workers and their map and reduce slots in total.
struct BatchCluster {
  int workers = 1;
  int map_slots = 1;
  int reduce_slots = 1;
  SlotShape slots() const { return {map_slots, reduce_slots}; }
  std::string Describe() const;  // "4 workers, 8 map and 8 reduce slots"
};
bool operator==(const BatchCluster& a, const BatchCluster& b);

// One job as the plan keeps it: enough to submit it (equal tasks of the mean durations, the
// live synthetic job's shape) and its ARIA stage estimates on the whole cluster.
struct PlanJob {
  std::string name;
  int maps = 1;
  int reduces = 0;
  double map_seconds = 0;     // mean over its maps
  double reduce_seconds = 0;  // mean over its reduces
  double map_stage = 0;       // estimates on the whole cluster
  double reduce_stage = 0;
  int pool = 0;  // index into BatchPlan::pools
};

// One schedule on the whole cluster: its order (indices into BatchPlan::jobs), its simulated
// makespan and the two-stage abstraction's.
struct PlannedOrder {
  std::vector<int> order;
  double makespan = 0;
  double two_stage = 0;
};

struct BatchPlan {
  BatchCluster cluster;
  std::vector<PlanJob> jobs;  // in the jobs file's (arrival) order
  PlannedOrder johnson, reverse_johnson, fifo;
  // BalancedPools: "small" and "large", or "all" when no split beats Johnson.
  std::vector<Pool> pools;
  std::vector<std::string> pool_names;
  double predicted_makespan = 0;  // BalancedPools' (never above Johnson's)
  int split = 0;
  int64_t simulations = 0;
  // The variants it was planned with (DescribePoolsVariants; "" for the paper's defaults).
  std::string variants;
};

// InvalidArgument for no jobs, an invalid job or a cluster with workers or slots < 1. Every
// schedule is simulated with `pools.sim`, and BalancedPools runs with `pools`' variants.
Result<BatchPlan> MakeBatchPlan(std::span<const BatchJob> jobs, const BatchCluster& cluster,
                                const PoolsOptions& pools = {});

// The plan as text: the jobs' stage estimates, each schedule's makespan and order, the pools.
void PrintBatchPlan(const BatchPlan& plan, std::ostream& out);

// The plan file, and back. ParseBatchPlan: InvalidArgument, one line naming `source`, for
// anything it does not recognise (not a plan file, a version it does not know, a pool that
// names an unknown job, jobs in no pool or in two, pools with more slots than the cluster).
std::string BatchPlanToJson(const BatchPlan& plan);
Result<BatchPlan> ParseBatchPlan(std::string_view text, const std::string& source);

// InvalidArgument "SOURCE: computed for 30 workers, 30 map and 30 reduce slots; this cluster
// has 4 workers, 8 map and 8 reduce slots" unless `actual` is the plan's cluster.
Status CheckPlanCluster(const BatchPlan& plan, const BatchCluster& actual, const std::string& source);

// The makespan of `order` (job names, every job once) simulated on the whole cluster, and
// in the two-stage abstraction. InvalidArgument naming an unknown, repeated or missing job.
Result<PlannedOrder> PlanGivenOrder(std::span<const BatchJob> jobs, const BatchCluster& cluster,
                                    std::span<const std::string> order, const BatchSimOptions& sim = {});

// `mr batch plan (--jobs FILE | --workload NAME) --workers N [--map-slots M --reduce-slots R]
// [--order NAMES] [--out PLAN] [--pools-by maps|work] [--pool-search crossing|paper]
// [--slow-start F]`.
struct BatchPlanOptions {
  std::string jobs_file;  // the jobs file; empty: the generated `workload`
  MakespanWorkloadOptions workload;
  // With `workload`: every job's tasks of their mean duration, as the experiment generator
  // `makespan` and `mr batch run` play them live (docs/makespan.md).
  bool mean_tasks = false;
  std::vector<JobProfile> profiles;  // the jobs as profiles (--profiles); used when non-empty
  BatchCluster cluster;
  std::vector<std::string> order;  // an order to simulate beside the plan's; empty: none
  std::string out;                 // the plan file; empty: none written
  PoolsOptions pools;              // the variants (docs/makespan.md, "Departures from the paper")
};
// Loads or generates the jobs, plans, prints the plan (and the given order's makespans)
// and writes the plan file. Errors: the jobs file's (NotFound, IoError, InvalidArgument),
// the generator's, MakeBatchPlan's, PlanGivenOrder's, IoError for the plan file.
Status RunBatchPlan(const BatchPlanOptions& options, std::ostream& out);

}  // namespace mr::model
