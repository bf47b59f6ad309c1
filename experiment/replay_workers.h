// A replay on a cluster whose workers differ (speeds, injected stragglers): the recorded
// durations are wall times on the worker that ran each task — its speed and its straggler
// hold included — while the simulator takes a duration as work on a worker of speed 1 and
// adds the hold of the worker it places the task on. And `mr experiment` starts its workers
// unordered, so the master's worker N is not the shape's N-th. AlignReplayWorkers matches
// the master's ids to the shape's workers by what each registered with (the master log's
// "worker N registered: ... speed=S straggler=... seed=K" lines), orders the simulator's
// workers by those ids, and turns each recorded duration back into work: (duration - the
// straggler delay that attempt had there) x the worker's speed. docs/model.md, "Replaying
// a recorded run". Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "common/status.h"
#include "experiment/trace_replay.h"
#include "model/tasksim/task_sim.h"

namespace mr::experiment {

// What a worker registered with, as the master logged it.
struct RegisteredWorker {
  double speed = 1;
  bool straggler = false;
  uint64_t straggler_seed = 0;  // when straggler
};

// The master log's registration lines by worker id (a worker that registered again: its
// last line). Lines that are not registrations are skipped.
std::map<int64_t, RegisteredWorker> ParseRegistrations(std::string_view master_log);

// True when `cluster`'s workers are not all alike at speed 1 without stragglers: only then
// does a replay need aligning.
bool NeedsAlignment(const model::ClusterSpec& cluster);

// Reorders cluster->worker_specs so that worker i is the master's worker i + 1 and turns
// `run`'s durations into work, as above. FailedPrecondition when the registrations are not
// workers 1 .. n of the cluster's n, or a registered worker matches none of the shape's.
// REQUIRES: cluster->worker_specs holds every worker (experiment's ToClusterSpec).
Status AlignReplayWorkers(const std::map<int64_t, RegisteredWorker>& registered, model::ClusterSpec* cluster,
                          RecordedRun* run);

}  // namespace mr::experiment
