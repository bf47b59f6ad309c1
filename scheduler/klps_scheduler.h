// k-LPS: the papers' model of the Fair Scheduler (ALGORITHMS.md §1). Map slots
// are processor-shared equally among the first k jobs (by arrival) that still
// have map work; later jobs wait, even if the k jobs cannot fill every slot,
// as in the queueing model. Shuffle is shared equally among all jobs with data.
// Reduces in arrival order. Stateless; not thread-safe.
#pragma once

#include "scheduler/scheduler.h"

namespace mr::sched {

class KlpsScheduler final : public Scheduler {
 public:
  // REQUIRES: k >= 1 (the registry rejects other values).
  explicit KlpsScheduler(int k) : k_(k) {}
  std::string_view name() const override { return "klps"; }
  Decision Schedule(const Snapshot& snap) override;

 private:
  int k_;
};

}  // namespace mr::sched
