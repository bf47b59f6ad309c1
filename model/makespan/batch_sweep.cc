#include "model/makespan/batch_sweep.h"

#include <cstdio>

#include "model/makespan/balanced_pools.h"

namespace mr::model {

namespace {

double Below(double value, double reference) { return reference > 0 ? 100 * (1 - value / reference) : 0; }

}  // namespace

Result<std::vector<SweepRow>> SweepBatch(std::span<const BatchJob> jobs, std::span<const int> nodes,
                                         const PoolsOptions& pools_options) {
  const BatchSimOptions& sim = pools_options.sim;
  if (jobs.empty()) return Status::InvalidArgument("batch sweep: no jobs");
  if (nodes.empty()) return Status::InvalidArgument("batch sweep: no cluster size");
  std::vector<JobProfile> profiles;
  for (const BatchJob& j : jobs) {
    MR_RETURN_IF_ERROR(ValidateBatchJob(j));
    profiles.push_back(ProfileOf(j));
  }
  std::vector<SweepRow> rows;
  for (int size : nodes) {
    if (size < 1) return Status::InvalidArgument("batch sweep: a cluster size must be >= 1, not " + std::to_string(size));
    const SlotShape slots{size, size};
    const std::vector<StagePair> pairs = StagePairs(profiles, slots);
    const std::vector<int> johnson = JohnsonOrder(pairs);
    const std::vector<int> reverse = Reversed(johnson);
    SweepRow row;
    row.nodes = size;
    row.min = TwoStageMakespan(pairs, johnson);
    row.max = TwoStageMakespan(pairs, reverse);
    row.minsim = SimulateValidBatch(jobs, johnson, slots, sim).makespan;
    row.maxsim = SimulateValidBatch(jobs, reverse, slots, sim).makespan;
    MR_ASSIGN_OR_RETURN(PoolsResult pools, BalancedPools(jobs, slots, pools_options));
    row.balancedpools = pools.makespan;
    row.split = pools.split;
    row.bound = BatchLowerBound(jobs, slots);
    rows.push_back(row);
  }
  return rows;
}

Status RunBatchSweep(const BatchSweepOptions& o, std::ostream& out) {
  MR_ASSIGN_OR_RETURN(std::vector<BatchJob> jobs, GenerateMakespanWorkload(o.workload));
  if (!(o.pools.sim.reduce_slow_start > 0 && o.pools.sim.reduce_slow_start <= 1)) {
    return Status::InvalidArgument("batch sweep: --slow-start must be in (0, 1]");
  }
  MR_ASSIGN_OR_RETURN(std::vector<SweepRow> rows, SweepBatch(jobs, o.nodes, o.pools));
  char line[256];
  if (o.csv) {
    out << "nodes,min,max,minsim,maxsim,balancedpools,split,bound\n";
    for (const SweepRow& r : rows) {
      std::snprintf(line, sizeof line, "%d,%.3f,%.3f,%.3f,%.3f,%.3f,%d,%.3f\n", r.nodes, r.min, r.max, r.minsim,
                    r.maxsim, r.balancedpools, r.split, r.bound);
      out << line;
    }
    return Status::Ok();
  }
  out << "# " << o.workload.name << ", " << jobs.size() << " jobs, seed " << o.workload.seed
      << "; nodes of one map and one reduce slot; makespans in the workload's time unit\n";
  std::snprintf(line, sizeof line, "%6s %12s %12s %12s %12s %14s %6s %16s %16s %12s %14s\n", "nodes", "min", "max",
                "minsim", "maxsim", "balancedpools", "split", "minsim<maxsim_%", "bp<minsim_%", "bound",
                "minsim>bound_%");
  out << line;
  for (const SweepRow& r : rows) {
    std::snprintf(line, sizeof line, "%6d %12.1f %12.1f %12.1f %12.1f %14.1f %6d %16.1f %16.1f %12.1f %14.1f\n", r.nodes,
                  r.min, r.max, r.minsim, r.maxsim, r.balancedpools, r.split, Below(r.minsim, r.maxsim),
                  Below(r.balancedpools, r.minsim), r.bound, r.bound > 0 ? 100 * (r.minsim / r.bound - 1) : 0);
    out << line;
  }
  return Status::Ok();
}

}  // namespace mr::model
