// Task-level discrete-event simulator of the real cluster that drives a LIVE
// sched::Scheduler through the same seam as the master: at every event it builds
// the sched::Snapshot the master would build (one worker's free slots per round,
// size estimates from hints then online), calls Schedule(), checks every
// assignment and share (an invalid decision is an error: the run doubles as a
// contract check of the policy) and applies them. Maps take slots for fixed
// times; a finished map's output waits on its worker and is sent at that
// worker's egress cap, split by the shuffle shares with unused capacity lent
// (as shuffle/net/share_limiter does); reduces run once all their job's data has
// arrived. Between events rates are constant, so time jumps exactly from event
// to event. Single-threaded; the scheduler is borrowed for the run.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/status.h"
#include "scheduler/scheduler.h"

namespace mr::model {

// One job as the cluster sees it (the shape of `mr submit synthetic`).
struct TaskJob {
  double arrival = 0;
  int maps = 1;
  double map_seconds = 0;  // slot-seconds per map task (all workers have speed 1)
  double map_bytes = 0;    // map output bytes per map task
  int reducers = 1;
  double reduce_seconds = 0;  // per reduce task, once all its job's data has arrived
  // The job's --hint-map-seconds (slot-seconds, all maps) and --hint-shuffle-bytes;
  // both 0 = no hint, so the policy sees no estimate until two maps are done.
  double hint_map_seconds = 0;
  double hint_shuffle_bytes = 0;
};

// Cluster shape and the master's knobs that matter for timing.
struct ClusterSpec {
  int workers = 1;
  int map_slots = 1;             // per worker
  int reduce_slots = 1;          // per worker
  double shuffle_bandwidth = 0;  // per worker egress cap, bytes/s; must be > 0
  double slow_start = 0.05;      // fraction of maps done before reducers are placed
  // Seconds from an event (arrival, map end, a job's shuffle end, reduce end) to
  // the scheduling round that reacts to it: the master only decides when a
  // worker heartbeats. 0 = the finished task's immediate heartbeat.
  double decision_latency = 0;
  // Map durations vary on a real cluster (3 maps time-sharing 2 cores, say), and a
  // worker whose maps happen to run faster takes more of a job's maps, so more of
  // its output: the job's busiest shuffle link carries more than an even share.
  // With map_time_cv > 0 each map's duration is its job's map_seconds times a
  // log-normal factor with mean 1 and this coefficient of variation, drawn from
  // `seed` (deterministic). 0 = every map exactly map_seconds.
  double map_time_cv = 0;
  uint64_t seed = 1;
};

struct TaskSimResult {
  std::vector<double> completion;  // per job, in input order
  std::vector<double> response;    // completion - arrival
  double mean_response = 0;
  double makespan = 0;
  int64_t events = 0;          // steps of the event loop
  int64_t schedule_calls = 0;  // Scheduler::Schedule() rounds
  int64_t assignments = 0;
  double max_share_sum = 0;  // largest sum of shuffle shares of any decision
  double max_link_load = 0;  // largest (sum of a worker's send rates) / its cap
};

// Runs `jobs` (any arrival order) on `cluster` under `scheduler` until every job
// has finished. InvalidArgument for a bad job or cluster; Internal when the
// policy returns an invalid decision (a busy slot, a task not pending, a share
// outside [0, 1] or summing above 1, an unknown job) or leaves work idle with
// nothing left that could wake it. The scheduler should be fresh (policies may
// keep memory between calls).
Result<TaskSimResult> SimulateTasks(std::span<const TaskJob> jobs, const ClusterSpec& cluster,
                                    sched::Scheduler& scheduler);

}  // namespace mr::model
