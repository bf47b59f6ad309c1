// The slotted system of "Minimizing total flow time of MapReduce jobs": N machines, time
// slots, each machine runs one unit of work per slot; a job's map tasks are one unit each,
// its reduce work starts in the slot after its last map. RunSlotted drives a LIVE
// sched::Scheduler (the object CreateScheduler makes for the master) slot by slot through
// the seam: one WorkerView (id 1) with N unified slots, Snapshot::now = the slot number,
// exact size estimates in units (source kHint), a job's reduces ready once its maps are
// done. Non-preemptive: a reduce task, once assigned, holds its machine until its units
// are done and shows in JobView::running. Preemptive (the paper's Definition 1): every
// unfinished reduce unit is its own ready one-unit reduce, at most N listed per job (no
// more can start in a slot). Every decision is checked: more tasks than free machines, a
// task assigned twice, a reduce before its job's maps are done, a kill, a queue entry, a
// backup or a slot other than worker 1's unified ones is an Internal error naming the slot.
// Single-threaded; the policy is borrowed for the run.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "model/slotted/slotted_workload.h"
#include "scheduler/policy_options.h"
#include "scheduler/scheduler.h"

namespace mr::model {

struct SlottedOptions {
  int machines = 100;       // N
  bool preemptive = false;  // reduce units may move between machines every slot
  // Record Schedule::slots (for tests and --schedule); costs a string per slot.
  bool record_schedule = false;
  // Slots in a row in which the policy leaves work waiting on idle machines and nothing
  // progresses before the run fails (a policy that never schedules would loop forever).
  int64_t max_idle_slots = 1000;
};

struct SlottedResult {
  std::vector<int64_t> finish;     // f_i: the slot job i's last unit ran in (input order)
  std::vector<int64_t> flow_time;  // f_i - a_i + 1
  int64_t total_flow_time = 0;
  int64_t last_slot = 0;           // the slot the last job finished in
  // When recorded: one line per slot from slot 1, e.g. "3: 1m2 2r1" = in slot 3 job 1
  // (input order, from 1) ran 2 map units and job 2 one reduce unit; idle slots "3:".
  std::vector<std::string> slots;
};

// Runs `jobs` (arrival order, as LoadSlottedWorkload returns them) to completion under
// `policy`. InvalidArgument for machines < 1; Internal (prefixed "policy NAME, slot T") for
// an invalid decision or max_idle_slots without progress.
Result<SlottedResult> RunSlotted(std::span<const SlottedJob> jobs, sched::Scheduler& policy,
                                 const SlottedOptions& options);

// CreateScheduler(name, options) with the policy's round option (its row's
// PolicyTraits::round_option, asrpt's `asrpt-round`) set to 1, one round = one slot, when
// the row has one and `options` does not set it; or, for "paper-fifo" and "paper-fair", the
// paper's own baselines (slotted_baselines.h; `options` ignored).
Result<std::unique_ptr<sched::Scheduler>> MakeSlottedPolicy(std::string_view name,
                                                            sched::PolicyOptions options = {});

}  // namespace mr::model
