// FIFO: Hadoop's default scheduler. Jobs by arrival; a job takes every free
// slot it can use before the next job gets any; the earliest job with shuffle
// data gets the whole shuffle share (the server lends what it cannot use).
// Stateless; not thread-safe (Scheduler contract).
#pragma once

#include "scheduler/scheduler.h"

namespace mr::sched {

class FifoScheduler final : public Scheduler {
 public:
  std::string_view name() const override { return "fifo"; }
  Decision Schedule(const Snapshot& snap) override;
};

}  // namespace mr::sched
