// The baselines of "Minimizing total flow time of MapReduce jobs" (its section VII) as the
// paper defines them, for the slotted model only (RunSlotted drives them through the same
// seam as the live policies, and checks their decisions the same way). They are not live
// policies: the live `fifo` and `fair` (scheduler/policies/) are Hadoop's, and on unified
// slots both place ready reduces before maps (docs/model.md, "The paper's baselines").
//   paper-fifo: "all the jobs are scheduled in their order of arrival". Jobs by arrival
//     (ties by id); each takes min(its schedulable tasks, machines left): its pending maps
//     while it has maps left, else its ready reduces (preemptive: reduce units).
//   paper-fair: "the assignment of machines are scheduled to all the waiting jobs in a fair
//     manner; if some jobs need fewer machines than others in each time slot, the remaining
//     machines are scheduled to the other jobs" (work-conserving). Every job with work this
//     slot gets an equal share of the N machines, capped by its demand (the machines its
//     running non-preemptive reduces hold + its schedulable tasks) and never below what its
//     running reduces hold; what a job cannot use goes to the others (water filling). In
//     whole machines: the largest integer level L with sum_i clamp(L, held_i, demand_i)
//     <= N, then one more machine each to the jobs at L below their demand, in arrival
//     order, while machines are left.
// Both read only the snapshot (no state between slots); not thread-safe.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "scheduler/scheduler.h"

namespace mr::model {

// "paper-fifo", "paper-fair".
std::vector<std::string> SlottedBaselineNames();
bool IsSlottedBaseline(std::string_view name);
// NotFound for a name that is not a slotted baseline.
Result<std::unique_ptr<sched::Scheduler>> MakeSlottedBaseline(std::string_view name);

// The machines per job (in `demand` order) of paper-fair's water filling over `machines`:
// each job's share lies in [held[i], demand[i]]. REQUIRES: equal sizes, held[i] <= demand[i],
// sum held <= machines.
std::vector<int> PaperFairShares(const std::vector<int>& held, const std::vector<int>& demand, int machines);

}  // namespace mr::model
