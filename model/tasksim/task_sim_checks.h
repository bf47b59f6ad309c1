// The decision contract as the task-level simulator enforces it (internal): each
// part of a sched::Decision checked against the state before it is applied. Every
// function returns Ok or Internal with the reason (the caller prefixes the policy,
// time and round). Pure functions of the state.
#pragma once

#include "model/tasksim/task_sim_state.h"
#include "scheduler/snapshot.h"

namespace mr::model::tasksim {

// Shares: each for a job in the snapshot, in [0, 1]; their sum (returned in *sum)
// at most 1 + kShareSlack.
inline constexpr double kShareSlack = 1e-9;
Status CheckShares(const SimState& state, const sched::Decision& d, double* sum);

// A queue entry: a live job's map that is pending or queued, and a known worker.
Status CheckQueue(const SimState& state, const sched::QueueMap& q);

// An assignment on the slots `offered` shows (a worker index, or kAllWorkers): a
// live job, an offered worker with a free slot of the kind given that fits the task.
// Without backup: a pending map, a map queued at that worker, or a reduce ready on
// it. With backup: a map running in exactly one attempt, not backed up yet, on another
// worker than that attempt's (the master's rules: master/decision_applier.cc).
Status CheckAssignment(const SimState& state, const sched::Assignment& a, int offered);

// A kill: a running attempt of a live job's task.
Status CheckKill(const SimState& state, const sched::Kill& k);

}  // namespace mr::model::tasksim
