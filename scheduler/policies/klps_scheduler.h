// k-LPS: the papers' model of the Fair Scheduler (docs/policies.md). Map slots
// are processor-shared equally among the first k jobs (by arrival) that still
// have map work; later jobs wait, even if the k jobs cannot fill every slot,
// as in the queueing model. Shuffle is shared equally among all jobs with data.
// Reduces in arrival order. Keeps only scratch buffers between calls (no state
// that affects a decision); not thread-safe.
#pragma once

#include <utility>
#include <vector>

#include "scheduler/scheduler.h"
#include "scheduler/util/service_memory.h"
#include "scheduler/util/slot_filler.h"
#include "scheduler/util/water_fill.h"

namespace mr::sched {

class KlpsScheduler final : public Scheduler {
 public:
  // name: the policy table row's (scheduler/policy_table.h); must outlive the object.
  // REQUIRES: k >= 1 (the table's range for klps-k rejects other values).
  KlpsScheduler(std::string_view name, int k) : name_(name), k_(k) {}
  std::string_view name() const override { return name_; }
  Decision Schedule(const Snapshot& snap) override;

 private:
  std::string_view name_;
  int k_;
  std::vector<int> order_;
  std::vector<int> active_;
  std::vector<FairItem> items_;
  std::vector<double> shares_;
  WaterFillScratch water_scratch_;
  std::vector<SlotTarget> targets_;
  ServiceMemory memory_;  // round robin among equals
  SlotFillerBuffers buffers_;
  FillScratch fill_scratch_;
  std::vector<std::pair<JobId, double>> share_pairs_;
};

}  // namespace mr::sched
