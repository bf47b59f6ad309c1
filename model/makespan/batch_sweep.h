// The paper's simulation study ("Orchestrating an Ensemble of MapReduce Jobs for Minimizing
// Their Makespan", section 4.2; docs/makespan.md, "Reproducing the paper"): one batch, a
// range of cluster sizes of one map and one reduce slot per node, and at each size the five
// strategies of its Figures 10-13 —
//   min          Johnson's order, the two-stage abstraction's makespan (ARIA stage estimates);
//   max          reverse Johnson's order, the same;
//   minsim       Johnson's order, simulated task by task (batch_sim.h);
//   maxsim       reverse Johnson's order, simulated;
//   balancedpools BalancedPools' pools (balanced_pools.h), simulated;
// and `bound`, BatchLowerBound: what no schedule can beat (so minsim / bound − 1 is the most
// BalancedPools or any order could gain over Johnson's at that size).
// The `mr batch sweep` command's work. Pure but RunBatchSweep (writes `out`); thread-safe.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <vector>

#include "common/status.h"
#include "model/makespan/balanced_pools.h"
#include "model/makespan/batch_sim.h"
#include "model/makespan/makespan_workloads.h"

namespace mr::model {

struct SweepRow {
  int nodes = 0;  // map slots = reduce slots = nodes
  double min = 0, max = 0, minsim = 0, maxsim = 0, balancedpools = 0;
  int split = 0;  // jobs in BalancedPools' small pool (0: one pool)
  double bound = 0;  // BatchLowerBound
};

// The five makespans of `jobs` at each of `nodes`. InvalidArgument for no jobs, an invalid
// job, no size or a size < 1.
// Every simulation runs with `pools.sim` (Hadoop's reduces: reduce_slow_start 0.05), and
// BalancedPools with `pools`' ranking and search.
Result<std::vector<SweepRow>> SweepBatch(std::span<const BatchJob> jobs, std::span<const int> nodes,
                                         const PoolsOptions& pools = {});

struct BatchSweepOptions {
  MakespanWorkloadOptions workload;
  std::vector<int> nodes;
  bool csv = false;  // CSV (nodes,min,max,minsim,maxsim,balancedpools,split,bound) instead of a table
  PoolsOptions pools;  // the variants (docs/makespan.md, "Departures from the paper")
};

// Generates the workload, sweeps, prints the rows; the table adds minsim's improvement over
// maxsim and balancedpools' over minsim (percent of the larger). GenerateMakespanWorkload's
// and SweepBatch's errors.
Status RunBatchSweep(const BatchSweepOptions& options, std::ostream& out);

}  // namespace mr::model
