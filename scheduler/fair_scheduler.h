// Fair: the Hadoop Fair Scheduler over real slots. Map slots are divided
// max-min fairly, first among pools (pool weight, pool min_maps) and then among
// each pool's jobs (job weight), never above a job's demand, so leftovers flow
// to jobs that can use them. Free slots go first to jobs below their minimum,
// then to the job furthest below its fair share. Reduces: pools below
// min_reduces first, then fewest running reduces per weight. Shuffle: weighted
// equal shares among jobs with data. Holds the parsed pools, a cache of pool
// name -> config and scratch buffers (none of which changes a decision); not
// thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "scheduler/incremental_order.h"
#include "scheduler/pool_table.h"
#include "scheduler/scheduler.h"
#include "scheduler/service_memory.h"
#include "scheduler/slot_filler.h"
#include "scheduler/water_fill.h"

namespace mr::sched {

class FairScheduler final : public Scheduler {
 public:
  explicit FairScheduler(PoolTable pools = PoolTable()) : pools_(std::move(pools)) {}
  std::string_view name() const override { return "fair"; }
  Decision Schedule(const Snapshot& snap) override;

 private:
  // The jobs of one pool in this decision.
  struct PoolGroup {
    int slot = 0;           // in the name cache (slot_config_)
    std::vector<int> jobs;  // indices into snap.jobs, arrival order
    int reduces_running = 0;
  };
  // Lets the name cache be searched with a string_view (no string per lookup).
  // FNV-1a: pool names are a few bytes, where it beats std::hash's setup.
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const {
      uint64_t h = 14695981039346656037ull;
      for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
      return static_cast<size_t>(h);
    }
  };

  int SlotOf(std::string_view pool_name);
  void GroupByPool(const Snapshot& snap);
  void ReduceOrder(const Snapshot& snap, SlotFiller& f);
  double MapTargets(const Snapshot& snap, SlotFiller& f);
  void PoolTargets(const Snapshot& snap, const SlotFiller& f, const PoolGroup& g,
                   double pool_min, double pool_share);

  PoolTable pools_;
  // Pool names seen so far -> slot; slot -> its config. Configs are copies, not
  // pointers into pools_, so the scheduler stays safe to move.
  std::unordered_map<std::string, int, NameHash, std::equal_to<>> slot_of_name_;
  std::vector<PoolConfig> slot_config_;
  // Scratch for one decision.
  std::vector<int> group_of_slot_;  // -1 = pool has no job in this decision
  std::vector<PoolGroup> groups_;   // [0, group_count_) are in use
  size_t group_count_ = 0;
  std::vector<int> arrival_, pool_of_;
  IncrementalOrder reduce_order_;
  std::vector<FairItem> pool_items_, job_items_;
  std::vector<double> pool_share_, mins_, shares_;
  std::vector<SlotTarget> targets_;
  ServiceMemory memory_;  // round robin among equals
  WaterFillScratch water_;
  FillScratch fill_;
  SlotFillerBuffers buffers_;
};

}  // namespace mr::sched
