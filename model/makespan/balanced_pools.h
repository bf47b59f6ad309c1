// BalancedPools, the paper's Algorithm 2 ("Orchestrating an Ensemble of MapReduce Jobs for
// Minimizing Their Makespan", section 3.3; docs/makespan.md): the batch split into a pool of
// small jobs and a pool of large ones (by number of map tasks), each pool run in its own
// Johnson order on its own share of the slots, the share found by a binary search that
// balances the two pools' simulated makespans; the best split, or Johnson's order on the
// whole cluster when no split beats it. Deterministic; pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/status.h"
#include "model/makespan/batch_sim.h"

namespace mr::model {

struct Pool {
  std::vector<int> order;  // job indices in run order (Johnson's order on the pool's slots)
  SlotShape slots;
  double makespan = 0;  // simulated
};

struct PoolsResult {
  std::vector<Pool> pools;  // one (no split beats Johnson) or two: the small jobs' first
  double makespan = 0;      // the largest pool makespan
  double johnson_makespan = 0;  // Johnson's order on the whole cluster, simulated
  int split = 0;            // jobs in the small pool; 0 = one pool
  int64_t simulations = 0;  // pool simulations run
};

// The pools' reduce slots for `map_slots` of the cluster's map slots to the small pool: the
// same share of the reduce slots, rounded, and at least one slot left to each pool. With as
// many reduce as map slots (the paper's nodes of one map and one reduce slot) it is
// map_slots. REQUIRES: 1 <= map_slots < cluster.map_slots, cluster.reduce_slots >= 2.
int SmallPoolReduceSlots(int map_slots, SlotShape cluster);

// Algorithm 2 on `jobs` and `cluster`:
//   1. the jobs sorted by their number of map tasks (ties in input order; `key`);
//   2. best = Johnson's order of all on the whole cluster, simulated;
//   3. for split = 1..n-1, small = the first `split` jobs, large = the rest: a binary search
//      over the small pool's map slots k in [1, S_M − 1] for the smallest k at which the small
//      pool's simulated makespan falls below the large pool's (each in its Johnson order on
//      its slots); the split's makespan is the better of k and k − 1 (the two sides of the
//      crossing), the larger of the two pools' there; keep the best.
// The search replaces the pseudocode's loop, which never ends once SizeEnd = SizeBegin + 1
// and the small pool is the slower (docs/makespan.md, "Departures"). A cluster with fewer
// than two map or reduce slots cannot be split. InvalidArgument for an empty batch, an
// invalid job or slots < 1.
// What ranks the jobs from small to large before the splits (step 1).
enum class PoolSplitKey {
  kMapTasks,  // the paper's: the number of map tasks
  kWork,      // variant "work": the slot-seconds of all the job's tasks (docs/makespan.md)
};

// How a split's small-pool size is searched (step 3).
enum class PoolSearch {
  // The default: the smallest k at which the small pool is the faster, then the better of k
  // and k − 1 (the pseudocode's loop made to end; docs/makespan.md, "Departures").
  kCrossing,
  // Variant "paper": the pseudocode's loop as written — SizeBegin = 1, SizeEnd = S_M, mid =
  // (begin + end) / 2, end = mid when the small pool is the faster, else begin = mid — ended
  // when end − begin <= 1 (where the written loop would never end), the split's makespan the
  // one simulated last (its line 19).
  kPaper,
};

struct PoolsOptions {
  BatchSimOptions sim;  // every simulation's (default: mrlab's reduces, after their maps)
  PoolSplitKey key = PoolSplitKey::kMapTasks;
  PoolSearch search = PoolSearch::kCrossing;
};

// The variants `options` names, as the flags that select them ("pools-by work, slow-start
// 0.05"); empty for the paper's defaults.
std::string DescribePoolsVariants(const PoolsOptions& options);

// Sets `options` from the flags' values: `pools_by` maps|work, `search` crossing|paper.
// InvalidArgument "--pools-by: 'x' is not maps or work" (or --pool-search's) otherwise.
Status ParsePoolsVariants(const std::string& pools_by, const std::string& search, PoolsOptions& options);

Result<PoolsResult> BalancedPools(std::span<const BatchJob> jobs, SlotShape cluster, const PoolsOptions& options = {});

}  // namespace mr::model
