// LRPT, largest remaining processing time first: the baseline "Minimizing total flow
// time of MapReduce jobs" uses to show how badly a work-conserving policy can do
// (docs/policies.md, "lrpt"). Jobs by largest remaining work (estimated map + reduce
// slot-seconds; a job of unknown map size after every sized job, ties by arrival); each
// free slot goes to the first job in that order with a task for it: a pending map on a
// map or unified slot, or, once all of the job's maps are done, a ready reduce on its own
// worker's reduce or unified slot (dedicated slots before unified ones). Work-conserving.
// Keeps only scratch buffers between calls; not thread-safe.
#pragma once

#include <string_view>
#include <vector>

#include "scheduler/util/incremental_order.h"
#include "scheduler/scheduler.h"

namespace mr::sched {

class LrptScheduler final : public Scheduler {
 public:
  // name: the policy table row's (scheduler/policy_table.h); must outlive the object.
  explicit LrptScheduler(std::string_view name) : name_(name) {}
  std::string_view name() const override { return name_; }
  Decision Schedule(const Snapshot& snap) override;

 private:
  std::string_view name_;
  std::vector<int> arrival_;
  IncrementalOrder order_;
};

}  // namespace mr::sched
