#include "master/task_reports.h"

#include <algorithm>
#include <string>

#include "common/file_util.h"
#include "common/log.h"
#include "master/job_output.h"
#include "master/job_paths.h"
#include "master/job_trace.h"

namespace mr::master {

using sched::TaskKind;

void TaskReports::Apply(WorkerRecord& w, const proto::Heartbeat& hb) {
  for (const auto& r : hb.reports()) HandleReport(w, r);
  for (const auto& f : hb.fetches()) HandleFetch(w, f);
  for (const auto& e : hb.served()) {
    JobRecord* job = state_.FindJob(e.job_id());
    if (job == nullptr) continue;
    Trace(*job, trace::Served{
                    .t = hb.served_until(), .worker = hb.worker_id(), .start = hb.served_since(), .bytes = e.bytes()});
    if (!job->finished()) job->RecordServed(hb.served_since(), hb.served_until(), e.bytes());
  }
}

void TaskReports::HandleReport(WorkerRecord& w, const proto::TaskReport& r) {
  JobRecord* job = state_.FindJob(r.job_id());
  if (job == nullptr || job->finished()) return;
  if (r.kind() == proto::MAP && r.index() < job->maps.size()) HandleMapReport(w, *job, r);
  if (r.kind() == proto::REDUCE && r.index() < job->reduces.size()) HandleReduceReport(w, *job, r);
}

void TaskReports::HandleMapReport(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r) {
  MapTask& m = job.maps[r.index()];
  if (!r.task_status().empty() && m.worker == w.id && r.attempt() == m.attempt) m.status_line = r.task_status();
  const bool running = m.state == MapTask::State::kRunning && !m.awaiting;
  const bool first = running && m.worker == w.id && r.attempt() == m.attempt;
  const bool backup = running && m.backup && m.backup->worker == w.id && r.attempt() == m.backup->attempt;
  if (r.state() == proto::RUNNING) {
    const double progress = std::clamp(r.progress(), 0.0, 1.0);
    if (first) m.progress = progress;
    if (backup) m.backup->progress = progress;
    return;
  }
  if (r.state() != proto::SUCCEEDED && r.state() != proto::FAILED) return;
  // A stale or duplicate attempt is never accepted: one attempt per task.
  if (!first && !backup) {
    DeleteIfSuperseded(w, job, r);
    return;
  }
  if (backup) m.SwapWithBackup();  // the reporting attempt is m's own from here on
  w.ReleaseSlot(false, m.unified);
  trace::AttemptEnd ev = AttemptEndEvent(r, w.id, m.unified ? "unified" : "map", state_.Now());
  if (r.state() == proto::FAILED) {
    RecordFailure(w, job, r, std::move(ev));
    if (m.backup) {
      m.PromoteBackup();  // the task runs on in its other attempt
    } else {
      m.state = MapTask::State::kPending;
      m.progress = 0;
      job.maps_running--;
    }
    m.failures++;
    job.counters[kFailedMapsCounter]++;
    m.last_failed_worker = w.id;
    registry_.CountFailure(job, w.id);
    if (m.failures >= state_.options.max_attempts) {
      lifecycle_.FinishJob(job, JobState::kFailed, "map " + TaskIdString(TaskKind::kMap, r.index()) + " failed " +
                                                       std::to_string(m.failures) + " times; last error: " + r.error());
    }
    return;
  }
  job.maps_running--;
  if (backup) job.counters[kBackupMapsWonCounter]++;
  if (m.backup) {  // the first attempt to succeed counts: the other is killed
    const MapTask::Backup other = *m.backup;
    m.backup.reset();
    killer_.EndAttempt(job, TaskKind::kMap, static_cast<int>(r.index()), other.attempt, other.worker, other.unified,
                       other.start_time, "attempt " + std::to_string(r.attempt()) + " succeeded first");
  }
  w.map_rate.Record(r.end_time() - r.start_time());
  ev.status = "ok";
  Trace(job, std::move(ev));
  proto::MapDone done;
  done.set_attempt(m.attempt);
  done.set_host(w.info.host());
  done.set_shuffle_port(w.info.shuffle_port());
  *done.mutable_partition_bytes() = r.partition_bytes();
  done.set_bytes_in(r.bytes_in());
  done.set_bytes_out(r.bytes_out());
  done.set_start_time(r.start_time());
  done.set_end_time(r.end_time());
  lifecycle_.CompleteMap(job, m, done, r.counters());
  // A map-only job's map has written its part file: commit it (before recording the map
  // done, as a reduce's commit does); the job ends with its last map.
  if (job.reduces.empty() && !lifecycle_.CommitMap(job, static_cast<int>(r.index()), r.attempt())) return;
  persistence_.PersistMapDone(job, static_cast<int>(r.index()), done);
  if (job.reduces.empty() && job.maps_done == static_cast<int>(job.maps.size())) {
    lifecycle_.FinishJob(job, JobState::kSucceeded, "");
    return;
  }
  TraceEstimate(job, state_.Now());
  // Ties go to this worker: the reply to its completion heartbeat then carries the
  // placement and the location, and a small job's reduce starts fetching at once
  // instead of waiting for another worker's next heartbeat.
  placer_.PlaceReduces(job, w.id);
  placer_.QueueLocation(job, r.index());
}

void TaskReports::HandleReduceReport(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r) {
  ReduceTask& t = job.reduces[r.index()];
  if (!r.task_status().empty() && t.worker == w.id && r.attempt() == t.attempt) t.status_line = r.task_status();
  if (t.backup && t.backup->worker == w.id) {
    HandleReduceBackupReport(w, job, r);
    return;
  }
  if (t.worker != w.id) {
    RemoveSupersededReduce(job, r);
    return;
  }
  if (r.state() == proto::RUNNING) {
    if (t.state == ReduceTask::State::kRunning && r.attempt() == t.attempt) t.progress = std::clamp(r.progress(), 0.0, 1.0);
    return;
  }
  if (r.state() == proto::FETCHING || r.state() == proto::READY) {
    if (t.state != ReduceTask::State::kFetching) return;
    job.shuffle_bytes_fetched += r.shuffle_bytes() - std::min(r.shuffle_bytes(), t.shuffle_bytes);
    t.shuffle_bytes = std::max(t.shuffle_bytes, r.shuffle_bytes());
    t.shuffle_bytes_in_flight = r.state() == proto::READY ? 0 : r.shuffle_bytes_in_flight();
    t.maps_fetched = r.maps_fetched();
    if (r.state() == proto::READY && t.maps_fetched == job.maps.size()) t.state = ReduceTask::State::kReady;
    return;
  }
  if (r.state() == proto::FAILED && t.state == ReduceTask::State::kFetching) {
    blame_.FailFetchingReduce(w, job, r);
    return;
  }
  if (r.state() == proto::KILLED) {
    ReturnReduceToFetching(w, job, r);
    return;
  }
  if (r.state() == proto::SUCCEEDED || r.state() == proto::FAILED) HandleReduceEnd(w, job, r);
}

// A running reduce attempt found one of its runs gone from its source while refetching it
// after a bad local copy: not the reducer's fault, and not a failure. The attempt gives its
// slot back and the reducer, still placed on the same worker, fetches that run again (the
// failed refetch was reported as a fetch event with its cause, so the map is re-executed
// when the fault is proven); it runs again once it reports READY.
void TaskReports::ReturnReduceToFetching(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r) {
  ReduceTask& t = job.reduces[r.index()];
  if (t.state != ReduceTask::State::kRunning || r.attempt() != t.attempt) return;
  w.ReleaseSlot(true, t.unified);
  job.counters[kKilledReducesCounter]++;
  trace::AttemptEnd ev = AttemptEndEvent(r, w.id, t.unified ? "unified" : "reduce", state_.Now());
  ev.status = "killed";
  ev.error = r.error();
  Trace(job, std::move(ev));
  if (t.backup && killer_.PromoteReduceBackup(job, static_cast<int>(r.index()), r.error())) return;
  job.reduces_running--;
  t.state = ReduceTask::State::kFetching;
  t.maps_fetched = std::min<uint32_t>(r.maps_fetched(), static_cast<uint32_t>(job.maps.size()) - 1);
}

void TaskReports::RecordFailure(const WorkerRecord& w, JobRecord& job, const proto::TaskReport& r,
                                trace::AttemptEnd ev) {
  ev.status = "failed";
  ev.error = r.error();
  if (!r.stderr_tail().empty()) ev.stderr_tail = r.stderr_tail();
  Trace(job, std::move(ev));
  proto::FailedAttempt& f = job.last_failed_attempt.emplace();
  f.set_task(TaskIdString(r.kind() == proto::MAP ? TaskKind::kMap : TaskKind::kReduce, static_cast<int>(r.index())));
  f.set_attempt(r.attempt());
  f.set_worker(w.id);
  f.set_time(state_.Now());
  f.set_error(r.error());
  f.set_stderr_tail(r.stderr_tail());
}

void TaskReports::HandleReduceEnd(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r) {
  ReduceTask& t = job.reduces[r.index()];
  if (t.state != ReduceTask::State::kRunning || r.attempt() != t.attempt) {
    RemoveSupersededReduce(job, r);
    return;
  }
  w.ReleaseSlot(true, t.unified);
  trace::AttemptEnd ev = AttemptEndEvent(r, w.id, t.unified ? "unified" : "reduce", state_.Now());
  if (r.state() == proto::FAILED) {
    RecordFailure(w, job, r, std::move(ev));
    t.failures++;
    job.counters[kFailedReducesCounter]++;
    registry_.CountFailure(job, w.id);
    const bool runs_on = t.backup && killer_.PromoteReduceBackup(job, static_cast<int>(r.index()), r.error());
    if (!runs_on) job.reduces_running--;
    if (t.failures >= state_.options.max_attempts) {
      lifecycle_.FinishJob(job, JobState::kFailed, "reduce " + TaskIdString(TaskKind::kReduce, r.index()) +
                                                       " failed " + std::to_string(t.failures) +
                                                       " times; last error: " + r.error());
    } else if (runs_on) {
      // the task runs on in its backup
    } else if (registry_.Blacklisted(job, w.id, TaskKindFilter::kReduce)) {
      lifecycle_.ResetReduce(job, r.index());  // fetch again on a healthier worker
      placer_.PlaceReduces(job);
    } else {
      t.state = ReduceTask::State::kReady;  // its fetched data is still on the worker
    }
    return;
  }
  job.reduces_running--;
  if (t.backup) {  // the first attempt to succeed commits: the other is killed
    killer_.DropReduceBackup(job, static_cast<int>(r.index()), "attempt " + std::to_string(r.attempt()) + " succeeded first");
  }
  w.reduce_rate.Record(r.end_time() - r.start_time());
  ev.status = "ok";
  Trace(job, std::move(ev));
  lifecycle_.CommitReduce(job, r.index(), r);
}

// Reports of a reduce's backup (task_reports.h). A backup that wins becomes the task's
// attempt and commits; one that fails, or must fetch again, ends and the task runs on in
// its other attempt (a backup never counts against --max-attempts).
void TaskReports::HandleReduceBackupReport(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r) {
  const int index = static_cast<int>(r.index());
  ReduceTask& t = job.reduces[index];
  ReduceTask::Backup& b = *t.backup;
  const bool mine = b.attempt != 0 && r.attempt() == b.attempt;
  switch (r.state()) {
    case proto::RUNNING:
      if (mine) b.progress = std::clamp(r.progress(), 0.0, 1.0);
      return;
    case proto::FETCHING:
    case proto::READY:
      if (b.attempt != 0) return;
      b.maps_fetched = r.maps_fetched();
      b.ready = r.state() == proto::READY && b.maps_fetched == job.maps.size();
      return;
    case proto::FAILED:
      if (b.attempt == 0) {  // its fetch failed on its own worker
        job.counters[kFailedReducesCounter]++;
        killer_.DropReduceBackup(job, index, "fetching failed: " + r.error());
        return;
      }
      break;
    case proto::KILLED:
    case proto::SUCCEEDED:
      break;
    default:
      return;
  }
  if (!mine) return;
  trace::AttemptEnd ev = AttemptEndEvent(r, w.id, b.unified ? "unified" : "reduce", state_.Now());
  if (r.state() != proto::SUCCEEDED) {
    ev.status = r.state() == proto::KILLED ? "killed" : "failed";
    ev.error = r.error();
    Trace(job, std::move(ev));
    job.counters[r.state() == proto::KILLED ? kKilledReducesCounter : kFailedReducesCounter]++;
    if (r.state() == proto::FAILED) registry_.CountFailure(job, w.id);
    w.ReleaseSlot(true, b.unified);
    t.backup.reset();
    return;
  }
  // The backup succeeded first: the attempt it backed up is killed and it commits.
  killer_.EndAttempt(job, TaskKind::kReduce, index, t.attempt, t.worker, t.unified, t.start_time,
                     "attempt " + std::to_string(r.attempt()) + " succeeded first");
  w.ReleaseSlot(true, b.unified);
  t.backup.reset();
  t.worker = w.id;
  t.attempt = r.attempt();
  job.reduces_running--;
  job.counters[kBackupReducesWonCounter]++;
  w.reduce_rate.Record(r.end_time() - r.start_time());
  ev.status = "ok";
  Trace(job, std::move(ev));
  lifecycle_.CommitReduce(job, index, r);
}

// A reduce attempt that no longer counts (it lost to its backup or the other way round, or
// ran on after it was killed) and still finished: its file under _temporary goes now rather
// than with the job. The committed attempt's file was renamed away already.
void TaskReports::RemoveSupersededReduce(const JobRecord& job, const proto::TaskReport& r) {
  if (r.state() != proto::SUCCEEDED) return;
  const ReduceTask& t = job.reduces[r.index()];
  if (t.state == ReduceTask::State::kRunning && r.attempt() == t.attempt) return;
  const std::string file = ReduceAttemptFile(job.spec, static_cast<int>(r.index()), r.attempt());
  auto output = OutputStoreOf(state_.options, job.spec);
  if (!output.ok()) {
    MR_LOG_WARN("{}: removing a superseded reduce attempt: {}", JobIdString(job.id), output.status().ToString());
    return;
  }
  // Off the state thread where there is one (a data server may hang for its I/O timeout);
  // nothing waits for it: the file is under _temporary, which goes with the job anyway.
  auto remove = [store = *output, dir = file.substr(0, file.rfind('/')), job_name = JobIdString(job.id)] {
    Status s = store->RemoveAll(dir);
    if (!s.ok()) MR_LOG_WARN("{}: removing a superseded reduce attempt: {}", job_name, s.ToString());
  };
  if (state_.options.offload) {
    state_.options.offload(std::move(remove), [] {});
  } else {
    remove();
  }
}

void TaskReports::HandleFetch(WorkerRecord& w, const proto::FetchEvent& f) {
  JobRecord* job = state_.FindJob(f.job_id());
  if (job == nullptr || f.reduce_index() >= job->reduces.size() || f.map_index() >= job->maps.size()) return;
  std::string task = TaskIdString(TaskKind::kReduce, static_cast<int>(f.reduce_index()));
  std::string map = TaskIdString(TaskKind::kMap, static_cast<int>(f.map_index()));
  Trace(*job, trace::FetchStart{.t = f.start_time(), .task = task, .map = map, .src_worker = f.src_worker()});
  trace::FetchEnd end{.t = f.end_time(),
                      .task = task,
                      .map = map,
                      .src_worker = f.src_worker(),
                      .worker = w.id,  // the fetching worker (a backup's too)
                      .start = f.start_time(),
                      .bytes = f.bytes(),
                      .status = f.ok() ? "ok" : "failed"};
  if (!f.ok()) {
    end.error = f.error();
    end.cause = FetchCauseName(f.cause());
  }
  Trace(*job, std::move(end));
  if (job->finished()) return;
  if (f.ok()) {
    job->RecordFetch(f.start_time(), f.end_time(), f.bytes());
  } else {
    blame_.BlameFetchFailure(w, *job, f);
  }
}

void TaskReports::DeleteIfSuperseded(WorkerRecord& w, const JobRecord& job, const proto::TaskReport& r) {
  if (r.state() != proto::SUCCEEDED) return;
  const MapTask& m = job.maps[r.index()];
  const bool counts = m.state == MapTask::State::kDone && m.worker == w.id && m.attempt == r.attempt();
  const bool awaited = m.awaiting && m.awaiting->map_done().attempt() == r.attempt();
  if (!counts && !awaited) registry_.DeleteOutput(w.id, job.id, r.index(), r.attempt());
}

}  // namespace mr::master
