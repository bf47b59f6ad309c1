// FIFO: Hadoop's default scheduler. Jobs by arrival; a job takes every free
// slot it can use before the next job gets any; the earliest job with shuffle
// data gets the whole shuffle share (the server lends what it cannot use).
// Keeps only scratch buffers between calls (no state that affects a decision);
// not thread-safe (Scheduler contract).
#pragma once

#include <vector>

#include "scheduler/scheduler.h"
#include "scheduler/util/slot_filler.h"

namespace mr::sched {

class FifoScheduler final : public Scheduler {
 public:
  // name: the policy table row's (scheduler/policy_table.h); must outlive the object.
  explicit FifoScheduler(std::string_view name) : name_(name) {}
  std::string_view name() const override { return name_; }
  Decision Schedule(const Snapshot& snap) override;

 private:
  std::string_view name_;
  std::vector<int> order_;
  SlotFillerBuffers buffers_;
};

}  // namespace mr::sched
