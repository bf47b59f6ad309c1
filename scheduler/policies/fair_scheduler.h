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

#include <string_view>
#include <utility>
#include <vector>

#include "scheduler/util/incremental_order.h"
#include "scheduler/util/name_index.h"
#include "scheduler/policies/pool_table.h"
#include "scheduler/scheduler.h"
#include "scheduler/util/service_memory.h"
#include "scheduler/util/slot_filler.h"
#include "scheduler/util/water_fill.h"

namespace mr::sched {

class FairScheduler final : public Scheduler {
 public:
  // name: the policy table row's (scheduler/policy_table.h); must outlive the object.
  explicit FairScheduler(std::string_view name, PoolTable pools = PoolTable())
      : name_(name), pools_(std::move(pools)) {}
  std::string_view name() const override { return name_; }
  Decision Schedule(const Snapshot& snap) override;

 private:
  // The jobs of one pool in this decision.
  struct PoolGroup {
    int slot = 0;           // in the name cache (slot_config_)
    std::vector<int> jobs;  // indices into snap.jobs, arrival order
    int reduces_running = 0;
  };
  int SlotOf(std::string_view pool_name);
  [[gnu::noinline]] void AddSlot(std::string_view pool_name);  // keeps SlotOf inlinable
  void GroupByPool(const Snapshot& snap);
  void ReduceOrder(const Snapshot& snap, SlotFiller& f);
  double MapTargets(const Snapshot& snap, SlotFiller& f);
  void PoolTargets(const Snapshot& snap, const SlotFiller& f, const PoolGroup& g,
                   double pool_min, double pool_share);

  std::string_view name_;
  PoolTable pools_;
  // Pool names seen so far -> slot; slot -> its config. Configs are copies, not
  // pointers into pools_, so the scheduler stays safe to move.
  NameIndex slot_of_name_;
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
  std::vector<std::pair<JobId, double>> share_pairs_;
};

}  // namespace mr::sched
