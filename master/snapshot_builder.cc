#include "master/snapshot_builder.h"

#include <algorithm>
#include <map>

#include "jobs/job_spec_params.h"

namespace mr::master {

namespace {
sched::SlotKind MapSlot(bool unified) { return unified ? sched::SlotKind::kUnified : sched::SlotKind::kMap; }

// The running map's attempts (its first and, if any, its backup) into v.running.
void AddRunning(const MapTask& m, int index, sched::JobView* v) {
  v->running.push_back({sched::TaskKind::kMap, index, m.attempt, m.worker, MapSlot(m.unified), m.start_time,
                        m.progress, /*backup=*/false});
  if (m.backup) {
    const MapTask::Backup& b = *m.backup;
    v->running.push_back({sched::TaskKind::kMap, index, b.attempt, b.worker, MapSlot(b.unified), b.start_time,
                          b.progress, /*backup=*/true});
  }
}
}  // namespace

sched::Snapshot SnapshotBuilder::Build(WorkerId only_free, bool every_worker_free) const {
  sched::Snapshot s;
  s.now = state_.Now();
  s.heartbeating = only_free;
  bool unlimited = false;
  for (const auto& [id, w] : state_.workers) {
    sched::WorkerView v;
    v.id = id;
    v.map_slots = static_cast<int>(w.info.map_slots());
    v.reduce_slots = static_cast<int>(w.info.reduce_slots());
    v.unified_slots = static_cast<int>(w.info.unified_slots());
    if (id == only_free || every_worker_free) {
      v.free_map = std::max(0, v.map_slots - w.running_map);
      v.free_reduce = std::max(0, v.reduce_slots - w.running_reduce);
      v.free_unified = std::max(0, v.unified_slots - w.running_unified);
    }
    v.speed = w.info.speed();
    v.shuffle_bandwidth = w.info.shuffle_bandwidth();
    v.map_task_rate = w.map_rate.Rate();
    v.reduce_task_rate = w.reduce_rate.Rate();
    v.labels = w.labels;  // shared, not copied (common/worker_labels.h)
    v.host = w.info.host();
    if (v.shuffle_bandwidth > 0) s.shuffle_capacity += v.shuffle_bandwidth;
    else unlimited = true;
    s.workers.push_back(v);
  }
  if (unlimited) s.shuffle_capacity = 0;
  std::map<WorkerId, int> queued;  // maps queued per worker, all jobs
  for (const auto& [id, job] : state_.jobs) {
    if (job->finished()) continue;
    sched::JobView v;
    v.id = id;
    v.name = job->spec.name();
    v.submit_time = job->submit_time;
    v.params = jobs::JobParamsFromSpec(job->spec);
    v.maps_total = static_cast<int>(job->maps.size());
    v.maps_running = job->maps_running;
    v.maps_done = job->maps_done;
    v.locality = job->Locality();  // shared, not copied
    // Where possible a task is retried on another worker, and a worker that keeps failing
    // a job gets none of its maps; neither rule ever leaves a map without a worker.
    bool avoid = registry_.Blacklisted(*job, only_free, TaskKindFilter::kMap);
    bool elsewhere = !avoid && registry_.OtherWorkerCanRun(*job, only_free, TaskKindFilter::kMap);
    for (size_t i = 0; i < job->maps.size(); ++i) {
      const MapTask& m = job->maps[i];
      if (m.state == MapTask::State::kRunning && !m.awaiting) AddRunning(m, static_cast<int>(i), &v);
      if (m.state != MapTask::State::kPending) continue;
      if (m.queued_at != 0) {
        v.queued_maps.push_back({static_cast<int>(i), m.queued_at});
        queued[m.queued_at]++;
        continue;
      }
      if (avoid || (elsewhere && m.last_failed_worker == only_free)) continue;
      v.pending_maps.push_back(static_cast<int>(i));
    }
    v.reduces_total = static_cast<int>(job->reduces.size());
    v.reduces_running = job->reduces_running;
    v.reduces_done = job->reduces_done;
    for (size_t i = 0; i < job->reduces.size(); ++i) {
      const ReduceTask& t = job->reduces[i];
      // A reducer holding every run while a map of its job runs again still waits, as one fetching.
      if (job->ReduceMayStart(t)) {
        v.ready_reduces.push_back({static_cast<int>(i), t.worker});
      } else if (t.state == ReduceTask::State::kFetching || t.state == ReduceTask::State::kReady) {
        v.reduces_fetching++;
      }
      if (t.state == ReduceTask::State::kRunning) {
        v.running.push_back({sched::TaskKind::kReduce, static_cast<int>(i), t.attempt, t.worker,
                             t.unified ? sched::SlotKind::kUnified : sched::SlotKind::kReduce, t.start_time,
                             t.progress, /*backup=*/false});
        if (t.backup && t.backup->attempt != 0) {
          const ReduceTask::Backup& b = *t.backup;
          v.running.push_back({sched::TaskKind::kReduce, static_cast<int>(i), b.attempt, b.worker,
                               b.unified ? sched::SlotKind::kUnified : sched::SlotKind::kReduce, b.start_time,
                               b.progress, /*backup=*/true});
        } else if (t.backup) {
          v.reduce_backups_fetching.push_back(static_cast<int>(i));
        }
      }
    }
    double produced = static_cast<double>(job->map_output_bytes);
    if (job->slow_start_reached) {
      v.shuffle_bytes_available = std::max(0.0, produced - static_cast<double>(job->shuffle_bytes_fetched));
    }
    v.estimate = job->Estimate(s.now);
    s.jobs.push_back(std::move(v));
  }
  for (sched::WorkerView& w : s.workers) {
    if (auto it = queued.find(w.id); it != queued.end()) w.queued_maps = it->second;
  }
  return s;
}

bool SnapshotBuilder::HasAssignableWork(const WorkerRecord& w) const {
  bool free_map = static_cast<int>(w.info.map_slots()) > w.running_map;
  bool free_reduce = static_cast<int>(w.info.reduce_slots()) > w.running_reduce;
  bool free_unified = static_cast<int>(w.info.unified_slots()) > w.running_unified;
  if (!free_map && !free_reduce && !free_unified) return false;
  for (const auto& [id, job] : state_.jobs) {
    if (job->finished()) continue;
    if ((free_map || free_unified) && job->maps_done + job->maps_running < static_cast<int>(job->maps.size())) return true;
    if (free_reduce || free_unified) {
      for (const auto& t : job->reduces) {
        if (job->ReduceMayStart(t) && t.worker == w.id) return true;
      }
    }
  }
  return false;
}

}  // namespace mr::master
