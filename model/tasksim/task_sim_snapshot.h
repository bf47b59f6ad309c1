// The snapshot the task-level simulator shows a policy (internal): what
// JobTracker::BuildSnapshot builds from the master's records, built from the
// simulator's state instead. Pure function of the state.
#pragma once

#include "model/tasksim/task_sim_state.h"
#include "scheduler/snapshot.h"

namespace mr::model::tasksim {

// Whose free slots a round shows: one worker's (its index; heartbeat scope), none
// (kNoWorker: a share refresh), or every worker's (kAllWorkers: kCluster scope).
inline constexpr int kNoWorker = -1;
inline constexpr int kAllWorkers = -2;

// Every worker listed (slots, speed, cap, measured map rate, queue length), free
// slots as `offered` says; unfinished jobs in arrival order with their pending and
// queued maps, running attempts (progress = elapsed / duration), ready reduces,
// shuffle data available once slow start is reached, parameters and the master's
// size estimate. Snapshot::heartbeating is the offered worker's id (0 otherwise).
sched::Snapshot BuildSnapshot(const SimState& state, int offered);

}  // namespace mr::model::tasksim
