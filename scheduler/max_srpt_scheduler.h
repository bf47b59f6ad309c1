// MaxSRPT (ALGORITHMS.md §1, Algorithm 1 of lin-overlapping-phases): jobs by
// smallest max(x_i(t), y_i(t)), ties by arrival. Map slots go down that order
// (each job takes what it can use); the whole shuffle share goes to the first
// job in that order with shuffle data (the server lends the rest). Jobs with no
// estimate get one probe map, then rank after every estimated job.
// Stateless; not thread-safe.
#pragma once

#include "scheduler/scheduler.h"

namespace mr::sched {

class MaxSrptScheduler final : public Scheduler {
 public:
  std::string_view name() const override { return "maxsrpt"; }
  Decision Schedule(const Snapshot& snap) override;
};

}  // namespace mr::sched
