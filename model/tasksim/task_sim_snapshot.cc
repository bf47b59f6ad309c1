#include "model/tasksim/task_sim_snapshot.h"

#include <algorithm>
#include <string>

#include "scheduler/util/job_sizes.h"

namespace mr::model::tasksim {
namespace {

sched::WorkerId IdOf(int worker) { return static_cast<sched::WorkerId>(worker + 1); }

// The master's estimate (sched::EstimateSize) for a job without input files or profile.
sched::SizeEstimate Estimate(const SimJob& job, double now) {
  sched::EstimateInputs in;
  in.maps_total = job.spec->maps;
  in.maps_done = job.maps_done;
  in.map_seconds_done = job.map_seconds_done;
  in.map_output_bytes = job.produced;
  in.hint_map_seconds = job.spec->params.hint_map_seconds;
  in.hint_shuffle_bytes = job.spec->params.hint_shuffle_bytes;
  in.shuffle_bytes_fetched = job.fetched;
  in.reduces_total = job.spec->reducers;
  in.reduces_done = job.reduces_done;
  in.reduces_measured = job.reduces_done;
  in.reduce_seconds_done = job.reduce_seconds_done;
  in.hint_reduce_seconds = job.spec->params.hint_reduce_seconds;
  auto map_elapsed = [&](double mean_time) {
    double elapsed = 0;
    for (const MapTask& m : job.maps) {
      if (m.state == MapState::kRunning)
        elapsed += std::min(mean_time, std::max(0.0, now - m.attempts.FirstStart()));
    }
    return elapsed;
  };
  auto reduce_elapsed = [&](double mean_time) {
    double elapsed = 0;
    for (const ReduceTask& r : job.reduces) {
      if (r.state == ReduceState::kRunning)
        elapsed += std::min(mean_time, std::max(0.0, now - r.attempts.FirstStart()));
    }
    return elapsed;
  };
  return sched::EstimateSize(in, map_elapsed, reduce_elapsed);
}

void AddRunning(const TaskAttempts& t, sched::TaskKind kind, int index, double now,
                std::vector<sched::RunningAttempt>& out) {
  for (const Attempt& a : t.running) {
    sched::RunningAttempt r;
    r.kind = kind;
    r.index = index;
    r.attempt = a.id;
    r.worker = IdOf(a.worker);
    r.slot = a.slot;
    r.start_time = a.start;
    r.progress = a.duration > 0 ? std::clamp(a.DoneBy(now) / a.duration, 0.0, 1.0) : 0.0;
    r.backup = a.backup;
    out.push_back(r);
  }
}

sched::JobView JobViewOf(const SimJob& job, double now) {
  const TaskJob& spec = *job.spec;
  sched::JobView v;
  v.id = job.id;
  v.name = "job-" + std::to_string(job.input_index);
  v.submit_time = spec.arrival;
  v.params = spec.params;
  v.maps_total = spec.maps;
  v.maps_running = job.maps_running;
  v.maps_done = job.maps_done;
  for (size_t i = 0; i < job.maps.size(); ++i) {
    const MapTask& m = job.maps[i];
    const int index = static_cast<int>(i);
    if (m.state == MapState::kPending) v.pending_maps.push_back(index);
    if (m.state == MapState::kQueued) v.queued_maps.push_back({index, IdOf(m.queued_at)});
    AddRunning(m.attempts, sched::TaskKind::kMap, index, now, v.running);
  }
  v.reduces_total = spec.reducers;
  v.reduces_fetching = job.reduces_fetching;
  v.reduces_running = job.reduces_running;
  v.reduces_done = job.reduces_done;
  for (size_t i = 0; i < job.reduces.size(); ++i) {
    const ReduceTask& r = job.reduces[i];
    const int index = static_cast<int>(i);
    if (r.state == ReduceState::kReady) v.ready_reduces.push_back({index, IdOf(r.worker)});
    AddRunning(r.attempts, sched::TaskKind::kReduce, index, now, v.running);
  }
  if (job.slow_start_reached)
    v.shuffle_bytes_available = std::max(0.0, job.produced - job.fetched);
  v.estimate = Estimate(job, now);
  return v;
}

}  // namespace

sched::Snapshot BuildSnapshot(const SimState& state, int offered) {
  sched::Snapshot s;
  s.now = state.now;
  s.reduce_backups = false;  // no model of a backup's second fetch (docs/speculation.md)
  s.heartbeating = offered >= 0 ? IdOf(offered) : 0;
  for (int i = 0; i < static_cast<int>(state.workers.size()); ++i) {
    const SimWorker& w = state.workers[i];
    sched::WorkerView v;
    v.id = IdOf(i);
    v.map_slots = w.spec.map_slots;
    v.reduce_slots = w.spec.reduce_slots;
    v.unified_slots = w.spec.unified_slots;
    if (i == offered || offered == kAllWorkers) {
      v.free_map = w.free_map;
      v.free_reduce = w.free_reduce;
      v.free_unified = w.free_unified;
    }
    v.speed = w.spec.speed;
    v.shuffle_bandwidth = w.spec.shuffle_bandwidth;
    v.map_task_rate = w.map_rate.Rate();
    v.queued_maps = w.queued_maps;
    v.labels = w.spec.labels;
    s.shuffle_capacity += v.shuffle_bandwidth;
    s.workers.push_back(v);
  }
  for (size_t j : state.active) s.jobs.push_back(JobViewOf(state.jobs[j], state.now));
  return s;
}

}  // namespace mr::model::tasksim
