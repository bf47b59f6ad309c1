// The task-level simulator's cluster state (internal to task_sim.cc and its helpers,
// not a public API): workers with their free slots, queues and measured map times;
// jobs with their map and reduce tasks and each task's running attempts. Plain data
// plus the bookkeeping that keeps the counters consistent; the event loop
// (task_sim.cc) decides what happens when.
#pragma once

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "model/tasksim/task_sim.h"
#include "scheduler/util/map_rate.h"
#include "scheduler/snapshot.h"

namespace mr::model::tasksim {

// One running attempt of a task. `end` is when it finishes (or fails, when `fails`).
// Under processor sharing (ClusterSpec::host_cores) it runs at `share` of its worker's
// speed since `rated_at`, having done `work_done` seconds (at full rate) before; without
// it share stays 1 and rated_at = start, so progress = elapsed / duration.
struct Attempt {
  uint32_t id = 0;
  int worker = 0;  // index into SimState::workers
  sched::SlotKind slot = sched::SlotKind::kMap;
  double start = 0;
  double duration = 0;  // its full duration at full rate
  double overhead = 0;  // of it, the slot's hold beyond the task's work (TaskJob::map_overheads)
  double end = 0;
  double share = 1;
  double rated_at = 0;
  double work_done = 0;
  // Seconds (at full rate) done by `now`, and the total it runs to (a failing attempt
  // stops at failure_point of its duration).
  double DoneBy(double now) const { return work_done + (now - rated_at) * share; }
  bool backup = false;
  bool fails = false;
};

enum class MapState { kPending, kQueued, kRunning, kDone };
// As the master's ReduceTask: placed on a worker at slow start (fetching, no
// slot), ready once all its job's data has arrived, then running in a slot.
enum class ReduceState { kUnplaced, kFetching, kReady, kRunning, kDone };

// What maps and reduces share: their running attempts (one, or two with a backup)
// and their failure count.
struct TaskAttempts {
  std::vector<Attempt> running;
  uint32_t next_attempt = 0;
  int failures = 0;
  bool backed_up = false;  // a backup was started for the current run
  // The running attempt with this id, or nullptr.
  const Attempt* Find(uint32_t id) const {
    for (const Attempt& a : running) {
      if (a.id == id) return &a;
    }
    return nullptr;
  }
  double FirstStart() const {
    double s = running.empty() ? 0 : running[0].start;
    for (const Attempt& a : running) s = a.start < s ? a.start : s;
    return s;
  }
};

struct MapTask {
  MapState state = MapState::kPending;
  int queued_at = -1;  // kQueued: the worker whose queue holds it
  TaskAttempts attempts;
};

struct ReduceTask {
  ReduceState state = ReduceState::kUnplaced;
  int worker = -1;
  TaskAttempts attempts;
};

struct SimJob {
  const TaskJob* spec = nullptr;
  size_t input_index = 0;
  sched::JobId id = 0;
  bool arrived = false, finished = false, failed = false, slow_start_reached = false;
  double placed_at = 0;  // when slow start placed the reducers (valid once slow_start_reached)
  std::vector<MapTask> maps;
  std::vector<ReduceTask> reduces;
  int maps_running = 0, maps_queued = 0, maps_done = 0;
  int reduces_fetching = 0, reduces_running = 0, reduces_done = 0;
  double map_seconds_done = 0, produced = 0, fetched = 0;
  double reduce_seconds_done = 0;  // of the done reduces (the online reduce estimate)
  double byte_eps = 0;          // a backlog at most this counts as drained
  std::vector<double> backlog;  // per worker: output there not yet fetched
  // With ClusterSpec::receiver_links, from slow start on (task_sim_receivers.h): per worker,
  // the fraction of the job's reducers it holds; and per (source, receiver) pair, index
  // source x workers + receiver, the output at the source not yet fetched by the reducers on
  // the receiver (backlog[source] is their sum). Empty otherwise.
  std::vector<double> receiver_frac;
  std::vector<double> pair_backlog;
  double share = 0;             // from the last decision
  double completion = 0;
  double maps_done_time = 0;    // when the last map finished (the sojourn's end)

  bool HasPendingMap() const { return maps_done + maps_running + maps_queued < spec->maps; }
};

struct SimWorker {
  WorkerSpec spec;
  int free_map = 0, free_reduce = 0, free_unified = 0;
  int queued_maps = 0;                 // all jobs
  sched::MapRateMeter map_rate;        // its finished maps
  // Its successful map attempts: how many, their summed durations (start to end) and their
  // summed responses (end - the job's arrival): TaskSimResult::worker_maps.
  int64_t maps_done = 0;
  double map_busy = 0, map_response = 0;
  // The slots its attempts' ends freed, each with the time of the end's report (the
  // attempt's end in the simulator, its slot's hold included): a round triggered by an
  // earlier report does not see them, as the live master's round does not see a report
  // still queued behind it (task_sim.cc, Decide). Dropped once a round has seen them.
  std::vector<std::pair<double, sched::SlotKind>> reported_frees;

  explicit SimWorker(const WorkerSpec& s)
      : spec(s), free_map(s.map_slots), free_reduce(s.reduce_slots), free_unified(s.unified_slots) {}
  int& Free(sched::SlotKind k) {
    return k == sched::SlotKind::kMap ? free_map
                                      : k == sched::SlotKind::kReduce ? free_reduce : free_unified;
  }
  int Free(sched::SlotKind k) const {
    return k == sched::SlotKind::kMap ? free_map
                                      : k == sched::SlotKind::kReduce ? free_reduce : free_unified;
  }
  bool CanRunMap() const { return free_map + free_unified > 0; }
  bool CanRunReduce() const { return free_reduce + free_unified > 0; }
};

struct SimState {
  std::vector<SimJob> jobs;     // by arrival (stable), id = position + 1
  std::vector<size_t> active;   // arrived, unfinished, in arrival order
  std::vector<SimWorker> workers;
  double now = 0;

  // The job with this id if it is in the snapshot (arrived, unfinished), else nullptr.
  const SimJob* Live(sched::JobId id) const {
    if (id < 1 || id > jobs.size()) return nullptr;
    const SimJob& j = jobs[id - 1];
    return j.arrived && !j.finished ? &j : nullptr;
  }
};

}  // namespace mr::model::tasksim
