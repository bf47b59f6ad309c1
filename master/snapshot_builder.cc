#include "master/snapshot_builder.h"

#include <algorithm>
#include <utility>
#include <vector>

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


// Every field of w's row; its free slots only if `free`.
void FillWorkerView(const WorkerRecord& w, bool free, sched::WorkerView* v) {
  v->id = w.id;
  v->map_slots = static_cast<int>(w.info.map_slots());
  v->reduce_slots = static_cast<int>(w.info.reduce_slots());
  v->unified_slots = static_cast<int>(w.info.unified_slots());
  v->free_map = free ? std::max(0, v->map_slots - w.running_map) : 0;
  v->free_reduce = free ? std::max(0, v->reduce_slots - w.running_reduce) : 0;
  v->free_unified = free ? std::max(0, v->unified_slots - w.running_unified) : 0;
  v->speed = w.info.speed();
  v->shuffle_bandwidth = w.info.shuffle_bandwidth();
  v->map_task_rate = w.map_rate.Rate();
  v->reduce_task_rate = w.reduce_rate.Rate();
  v->queued_maps = 0;
  v->labels = w.labels;  // shared, not copied (common/worker_labels.h)
  v->host = w.info.host();
}

sched::WorkerView* FindRow(sched::Snapshot* s, WorkerId id) {
  auto it = std::lower_bound(s->workers.begin(), s->workers.end(), id,
                             [](const sched::WorkerView& v, WorkerId w) { return v.id < w; });
  return it != s->workers.end() && it->id == id ? &*it : nullptr;
}
}  // namespace

void SnapshotBuilder::RefreshAllWorkers(sched::Snapshot* s, WorkerId only_free, bool every_worker_free) const {
  s->workers.resize(state_.workers.size());
  s->shuffle_capacity = 0;
  bool unlimited = false;
  size_t i = 0;
  for (const auto& [id, w] : state_.workers) {
    sched::WorkerView& v = s->workers[i++];
    FillWorkerView(w, id == only_free || every_worker_free, &v);
    if (v.shuffle_bandwidth > 0) s->shuffle_capacity += v.shuffle_bandwidth;
    else unlimited = true;
  }
  if (unlimited) s->shuffle_capacity = 0;
}

void SnapshotBuilder::RefreshWorker(sched::Snapshot* s, WorkerId id, bool free) const {
  auto it = state_.workers.find(id);
  sched::WorkerView* row = FindRow(s, id);
  if (it != state_.workers.end() && row != nullptr) FillWorkerView(it->second, free, row);
}

void SnapshotBuilder::FillJob(const JobRecord& job, WorkerId only_free, sched::JobView* v,
                              std::vector<std::pair<WorkerId, int>>* queued) const {
  if (v->id != job.id) {  // what the spec says never changes: copied once per job and slot
    v->id = job.id;
    v->name = job.spec.name();
    v->params = jobs::JobParamsFromSpec(job.spec);
  }
  v->submit_time = job.submit_time;
  v->maps_total = static_cast<int>(job.maps.size());
  v->maps_running = job.maps_running;
  v->maps_done = job.maps_done;
  v->locality = job.Locality();  // shared, not copied
  v->pending_maps.clear();
  v->queued_maps.clear();
  v->running.clear();
  v->ready_reduces.clear();
  v->reduce_backups_fetching.clear();
  // Where possible a task is retried on another worker, and a worker that keeps failing
  // a job gets none of its maps; neither rule ever leaves a map without a worker.
  bool avoid = registry_.Blacklisted(job, only_free, TaskKindFilter::kMap);
  bool elsewhere = !avoid && registry_.OtherWorkerCanRun(job, only_free, TaskKindFilter::kMap);
  for (size_t i = 0; i < job.maps.size(); ++i) {
    const MapTask& m = job.maps[i];
    if (m.state == MapTask::State::kRunning && !m.awaiting) AddRunning(m, static_cast<int>(i), v);
    if (m.state != MapTask::State::kPending) continue;
    if (m.queued_at != 0) {
      v->queued_maps.push_back({static_cast<int>(i), m.queued_at});
      queued->emplace_back(m.queued_at, 1);
      continue;
    }
    if (avoid || (elsewhere && m.last_failed_worker == only_free)) continue;
    v->pending_maps.push_back(static_cast<int>(i));
  }
  v->reduces_total = static_cast<int>(job.reduces.size());
  v->reduces_fetching = 0;
  v->reduces_running = job.reduces_running;
  v->reduces_done = job.reduces_done;
  for (size_t i = 0; i < job.reduces.size(); ++i) {
    const ReduceTask& t = job.reduces[i];
    // A reducer holding every run while a map of its job runs again still waits, as one fetching.
    if (job.ReduceMayStart(t)) {
      v->ready_reduces.push_back({static_cast<int>(i), t.worker});
    } else if (t.state == ReduceTask::State::kFetching || t.state == ReduceTask::State::kReady) {
      v->reduces_fetching++;
    }
    if (t.state == ReduceTask::State::kRunning) {
      v->running.push_back({sched::TaskKind::kReduce, static_cast<int>(i), t.attempt, t.worker,
                            t.unified ? sched::SlotKind::kUnified : sched::SlotKind::kReduce, t.start_time,
                            t.progress, /*backup=*/false});
      if (t.backup && t.backup->attempt != 0) {
        const ReduceTask::Backup& b = *t.backup;
        v->running.push_back({sched::TaskKind::kReduce, static_cast<int>(i), b.attempt, b.worker,
                              b.unified ? sched::SlotKind::kUnified : sched::SlotKind::kReduce, b.start_time,
                              b.progress, /*backup=*/true});
      } else if (t.backup) {
        v->reduce_backups_fetching.push_back(static_cast<int>(i));
      }
    }
  }
  double produced = static_cast<double>(job.map_output_bytes);
  v->shuffle_bytes_available =
      job.slow_start_reached ? std::max(0.0, produced - static_cast<double>(job.shuffle_bytes_fetched)) : 0;
}

void SnapshotBuilder::FillJobs(sched::Snapshot* s, WorkerId only_free,
                               std::vector<std::pair<WorkerId, int>>* queued) const {
  queued->clear();
  size_t n = 0;
  for (const auto& [id, job] : state_.jobs) {
    if (job->finished()) continue;
    if (n == s->jobs.size()) s->jobs.emplace_back();
    sched::JobView& v = s->jobs[n++];
    FillJob(*job, only_free, &v, queued);
    v.estimate = job->Estimate(s->now);
  }
  s->jobs.resize(n);
  // One entry per queued map so far: summed per worker, in worker order.
  std::sort(queued->begin(), queued->end());
  size_t out = 0;
  for (size_t i = 0; i < queued->size(); ++i) {
    if (out > 0 && (*queued)[out - 1].first == (*queued)[i].first) {
      (*queued)[out - 1].second += (*queued)[i].second;
    } else {
      (*queued)[out++] = (*queued)[i];
    }
  }
  queued->resize(out);
}

const sched::Snapshot& SnapshotBuilder::Build(WorkerId only_free, bool every_worker_free) {
  sched::Snapshot& s = cache_;
  s.now = state_.Now();
  s.heartbeating = only_free;
  const bool membership_changed = !rows_built_ || worker_count_ != state_.workers.size() ||
                                  next_worker_id_ != state_.next_worker_id;
  if (membership_changed || every_worker_free || last_every_free_) {
    RefreshAllWorkers(&s, only_free, every_worker_free);
    rows_built_ = true;
    worker_count_ = state_.workers.size();
    next_worker_id_ = state_.next_worker_id;
  } else {
    for (WorkerId id : changed_) RefreshWorker(&s, id, id == only_free);
    for (const auto& [id, n] : queued_) {
      if (sched::WorkerView* row = FindRow(&s, id)) row->queued_maps = 0;
    }
    if (last_free_ != only_free) RefreshWorker(&s, last_free_, false);
    RefreshWorker(&s, only_free, true);
  }
  changed_.clear();
  last_free_ = only_free;
  last_every_free_ = every_worker_free;
  FillJobs(&s, only_free, &queued_);
  for (const auto& [id, n] : queued_) {
    if (sched::WorkerView* row = FindRow(&s, id)) row->queued_maps = n;
  }
  return s;
}

sched::Snapshot SnapshotBuilder::BuildFresh(WorkerId only_free, bool every_worker_free) const {
  sched::Snapshot s;
  s.now = state_.Now();
  s.heartbeating = only_free;
  RefreshAllWorkers(&s, only_free, every_worker_free);
  std::vector<std::pair<WorkerId, int>> queued;
  FillJobs(&s, only_free, &queued);
  for (const auto& [id, n] : queued) {
    if (sched::WorkerView* row = FindRow(&s, id)) row->queued_maps = n;
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
