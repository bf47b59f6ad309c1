// MaxSRPT (Algorithm 1 of the overlapping-phases paper, docs/policies.md): jobs by
// smallest max(x_i(t), y_i(t)), ties by arrival. Map slots go down that order
// (each job takes what it can use); the whole shuffle share goes to the first
// job in that order with shuffle data (the server lends the rest). Jobs with no
// estimate get one probe map, then rank after every estimated job. Only the
// head of the order that the free slots reach is sorted. Keeps only scratch
// buffers between calls (no state that affects a decision); not thread-safe.
#pragma once

#include <vector>

#include "scheduler/util/incremental_order.h"
#include "scheduler/util/job_sizes.h"
#include "scheduler/scheduler.h"
#include "scheduler/util/slot_filler.h"

namespace mr::sched {

class MaxSrptScheduler final : public Scheduler {
 public:
  // name: the policy table row's (scheduler/policy_table.h); must outlive the object.
  // uncapped_link_rate: bytes/s an uncapped worker link is scored at (the row's
  // link-rate option); 0 = not given, the shuffle is then free (sched::CapacityOf).
  explicit MaxSrptScheduler(std::string_view name, double uncapped_link_rate = 0)
      : name_(name), uncapped_link_rate_(uncapped_link_rate) {}
  std::string_view name() const override { return name_; }
  Decision Schedule(const Snapshot& snap) override;

 private:
  std::string_view name_;
  double uncapped_link_rate_;
  std::vector<int> arrival_;
  std::vector<JobSize> sizes_;
  std::vector<double> key_;
  IncrementalOrder order_;          // every job: map slots, shuffle
  IncrementalOrder reduce_order_;   // jobs that can place a reduce
  SlotFillerBuffers buffers_;
};

}  // namespace mr::sched
