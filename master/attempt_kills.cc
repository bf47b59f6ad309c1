#include "master/attempt_kills.h"

#include <algorithm>

#include "common/log.h"
#include "master/job_trace.h"

namespace mr::master {

using sched::TaskKind;

bool AttemptKiller::Kill(const sched::Kill& k) {
  JobRecord* job = state_.FindJob(k.job);
  const std::string reason = k.reason.empty() ? "killed by the policy" : k.reason;
  if (job == nullptr || job->finished() || k.index < 0) return false;
  if (k.kind == TaskKind::kMap) {
    if (k.index >= static_cast<int>(job->maps.size())) return false;
    MapTask& m = job->maps[k.index];
    if (m.state != MapTask::State::kRunning || m.awaiting) return false;
    if (m.backup && m.backup->attempt == k.attempt) {
      MapTask::Backup b = *m.backup;
      m.backup.reset();
      EndAttempt(*job, k.kind, k.index, b.attempt, b.worker, b.unified, b.start_time, reason);
      return true;
    }
    if (m.attempt != k.attempt) return false;
    const WorkerId worker = m.worker;
    const bool unified = m.unified;
    const double start = m.start_time;
    if (m.backup) {
      m.PromoteBackup();  // the task runs on in its other attempt
    } else {
      m.state = MapTask::State::kPending;
      m.progress = 0;
      job->maps_running--;
    }
    EndAttempt(*job, k.kind, k.index, k.attempt, worker, unified, start, reason);
    return true;
  }
  if (k.index >= static_cast<int>(job->reduces.size())) return false;
  ReduceTask& t = job->reduces[k.index];
  if (t.state != ReduceTask::State::kRunning) return false;
  if (t.backup && t.backup->attempt != 0 && t.backup->attempt == k.attempt) {
    DropReduceBackup(*job, k.index, reason);
    return true;
  }
  if (t.attempt != k.attempt) return false;
  EndAttempt(*job, k.kind, k.index, k.attempt, t.worker, t.unified, t.start_time, reason);
  if (t.backup && PromoteReduceBackup(*job, k.index, reason)) return true;
  t.state = ReduceTask::State::kReady;  // its fetched data is still on the worker
  t.progress = 0;
  job->reduces_running--;
  return true;
}

void AttemptKiller::DropReduceBackup(JobRecord& job, int index, const std::string& reason) {
  ReduceTask& t = job.reduces[index];
  const ReduceTask::Backup b = *t.backup;
  t.backup.reset();
  if (b.attempt != 0) {
    EndAttempt(job, TaskKind::kReduce, index, b.attempt, b.worker, b.unified, b.start_time, reason);
    return;
  }
  if (WorkerRecord* w = state_.FindWorker(b.worker)) w->ReleaseSlot(true, b.unified);
  Trace(job, trace::ReduceBackupDropped{.t = state_.Now(),
                                        .task = TaskIdString(TaskKind::kReduce, index),
                                        .worker = b.worker,
                                        .maps_fetched = b.maps_fetched,
                                        .reason = reason});
}

bool AttemptKiller::PromoteReduceBackup(JobRecord& job, int index, const std::string& why) {
  ReduceTask& t = job.reduces[index];
  if (t.backup->attempt == 0) {
    DropReduceBackup(job, index, "the attempt it backed up ended: " + why);
    return false;
  }
  t.PromoteBackup();
  t.maps_fetched = static_cast<uint32_t>(job.maps.size());
  return true;
}

void AttemptKiller::EndAttempt(JobRecord& job, TaskKind kind, int index, uint32_t attempt, WorkerId worker,
                               bool unified, double start_time, const std::string& reason) {
  if (WorkerRecord* w = state_.FindWorker(worker)) {
    w->ReleaseSlot(kind == TaskKind::kReduce, unified);
    Tell(*w, job.id, kind, index, attempt);
  }
  job.counters[kind == TaskKind::kMap ? kKilledMapsCounter : kKilledReducesCounter]++;
  Trace(job, trace::AttemptEnd{.t = state_.Now(),
                               .task = TaskIdString(kind, index),
                               .attempt = attempt,
                               .worker = worker,
                               .start = start_time,
                               .status = "killed",
                               .error = reason});
  MR_LOG_INFO("{} {} attempt {} on worker {} killed: {}", JobIdString(job.id), TaskIdString(kind, index), attempt,
              worker, reason);
}

void AttemptKiller::Tell(WorkerRecord& w, uint64_t job, TaskKind kind, int index, uint32_t attempt) {
  const proto::TaskKind pkind = kind == TaskKind::kMap ? proto::MAP : proto::REDUCE;
  auto& out = w.outbox_assignments;
  auto undelivered = std::find_if(out.begin(), out.end(), [&](const proto::Assignment& a) {
    return a.job_id() == job && a.kind() == pkind && a.index() == static_cast<uint32_t>(index) &&
           a.attempt() == attempt && !a.place_only();
  });
  if (undelivered != out.end()) {
    out.erase(undelivered);  // it never started: nothing to kill
    return;
  }
  proto::KillTask& kill = w.outbox_kills.emplace_back();
  kill.set_job_id(job);
  kill.set_kind(pkind);
  kill.set_index(static_cast<uint32_t>(index));
  kill.set_attempt(attempt);
}

}  // namespace mr::master
