// Fair: the Hadoop Fair Scheduler over real slots. Map slots are divided
// max-min fairly, first among pools (pool weight, pool min_maps) and then among
// each pool's jobs (job weight), never above a job's demand, so leftovers flow
// to jobs that can use them. Free slots go first to jobs below their minimum,
// then to the job furthest below its fair share. Reduces: pools below
// min_reduces first, then fewest running reduces per weight. Shuffle: weighted
// equal shares among jobs with data. Holds the parsed pools; not thread-safe.
#pragma once

#include "scheduler/pool_table.h"
#include "scheduler/scheduler.h"

namespace mr::sched {

class FairScheduler final : public Scheduler {
 public:
  explicit FairScheduler(PoolTable pools = PoolTable()) : pools_(std::move(pools)) {}
  std::string_view name() const override { return "fair"; }
  Decision Schedule(const Snapshot& snap) override;

 private:
  PoolTable pools_;
};

}  // namespace mr::sched
