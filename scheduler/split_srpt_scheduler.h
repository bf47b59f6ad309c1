// SplitSRPT (ALGORITHMS.md §1, Algorithm 2 of lin-overlapping-phases). With
// beta = min over estimated jobs of max(x/y, y/x) on original sizes, mu1 =
// 1/(1+beta), mu2 = beta/(1+beta): map-heavy jobs (x >= y) hold round(mu2 * map
// slots) and shuffle share mu1, served SRPT on remaining map size; shuffle-heavy
// jobs hold the other map slots and share mu2, SRPT on remaining shuffle size.
// A class that is empty or cannot use its slots leaves them to the other class.
// Jobs with no estimate get one probe map, then only leftovers. Stateless.
#pragma once

#include <span>

#include "scheduler/job_sizes.h"
#include "scheduler/scheduler.h"

namespace mr::sched {

class SplitSrptScheduler final : public Scheduler {
 public:
  std::string_view name() const override { return "splitsrpt"; }
  Decision Schedule(const Snapshot& snap) override;

  // beta(t) over the estimated jobs; +infinity if every such job has only map
  // or only shuffle work, 1 if there is no estimated job.
  static double Beta(std::span<const JobSize> sizes);
};

}  // namespace mr::sched
