#include "master/job_lifecycle.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "common/file_util.h"
#include "common/log.h"
#include "jobs/job.h"
#include "jobs/job_request.h"
#include "jobs/output_dir.h"
#include "master/job_output.h"
#include "master/job_paths.h"
#include "master/job_trace.h"

namespace mr::master {

using sched::TaskKind;

namespace {

// The paths' shape, then the checks every submitter shares (jobs::ValidateJobSpec): a spec
// handed to Submit directly (not through a connection's message checks) is held to them.
Status ValidateSpec(const proto::JobSpec& spec) {
  if (spec.output().empty() || spec.output()[0] != '/') {
    return Status::InvalidArgument("output must be an absolute path");
  }
  if (spec.output().find("/../") != std::string::npos || spec.output().size() > 4096) {
    return Status::InvalidArgument("output path must be normalised");
  }
  for (const auto& in : spec.inputs()) {
    if (in.empty() || in[0] != '/') return Status::InvalidArgument("input '" + in + "' must be absolute");
  }
  return jobs::ValidateJobSpec(spec, sched::ParamNames::kName);
}
}  // namespace

std::optional<uint64_t> JobLifecycle::FindSubmission(const proto::JobSpec& spec) const {
  if (spec.submission_id().empty()) return std::nullopt;
  for (const auto& [id, j] : state_.jobs) {
    if (j->spec.submission_id() == spec.submission_id()) return id;
  }
  return std::nullopt;
}

Result<uint64_t> JobLifecycle::Submit(const proto::JobSpec& spec) {
  if (std::optional<uint64_t> id = FindSubmission(spec)) return *id;  // the same submission sent again
  MR_ASSIGN_OR_RETURN(PlannedJob plan, PlanJob(state_.options, spec, state_.Now()));
  return Admit(std::move(plan));
}

Result<PlannedJob> JobLifecycle::PlanJob(const TrackerOptions& options, const proto::JobSpec& spec_in,
                                         double planned_at) {
  PlannedJob out;
  out.planned_at = planned_at;
  proto::JobSpec& spec = out.spec;
  spec = spec_in;
  MR_RETURN_IF_ERROR(ValidateSpec(spec));
  jobs::Params params(spec.params().begin(), spec.params().end());
  MR_ASSIGN_OR_RETURN(std::unique_ptr<jobs::Job> job, jobs::CreateJob(spec.job(), params));
  MR_ASSIGN_OR_RETURN(const jobs::OutputStore* output, OutputStoreOf(options, spec));
  MR_ASSIGN_OR_RETURN(const jobs::OutputState out_state, output->State(spec.output()));
  // An unclaimed directory (jobs/output_dir.h) is taken over, unless a job of ours names
  // it: Admit checks that.
  if (out_state == jobs::OutputState::kTaken) {
    return Status::AlreadyExists("output directory " + spec.output() + " already exists");
  }
  const jobs::InputSource* from = options.input_source;
  if (!spec.input_server().empty()) {  // the inputs are on one host, behind its data server
    if (!options.remote_inputs) {
      return Status::FailedPrecondition("this master cannot read inputs from a data server");
    }
    MR_ASSIGN_OR_RETURN(from, options.remote_inputs(spec.input_server()));
  }
  const jobs::InputSource& source = *from;
  std::vector<std::string> inputs(spec.inputs().begin(), spec.inputs().end());
  MR_ASSIGN_OR_RETURN(jobs::JobPlan plan, job->Plan(source, inputs, spec.reducers()));
  out.uses_input = plan.uses_input;
  if (plan.uses_input) {
    if (inputs.empty()) return Status::InvalidArgument("job '" + spec.job() + "' needs --input");
    out.splits = std::move(plan.splits);  // the job's own (plan.own_splits)
    if (!plan.own_splits) {
      MR_ASSIGN_OR_RETURN(out.splits, jobs::ComputeSplits(source, inputs, spec.split_bytes()));
    }
    for (const auto& s : out.splits) out.input_bytes += s.length;
  } else if (spec.num_maps() == 0) {
    return Status::InvalidArgument("job '" + spec.job() + "' needs --maps > 0");
  }
  for (auto& [k, v] : plan.extra_params) (*spec.mutable_params())[k] = v;
  MR_RETURN_IF_ERROR(output->Claim(spec.output()));  // appears with its _temporary, or not at all
  return out;
}

Result<uint64_t> JobLifecycle::Admit(PlannedJob planned) {
  proto::JobSpec& spec = planned.spec;
  // Two sends of one submission planned side by side (JobTracker::SubmitAsync): one job.
  if (std::optional<uint64_t> id = FindSubmission(spec)) return *id;
  bool reclaim = false;
  for (const auto& [id, j] : state_.jobs) {
    if (j->spec.output() != spec.output() || j->spec.output_server() != spec.output_server()) continue;
    if (!j->finished()) return Status::AlreadyExists("output directory " + spec.output() + " already exists");
    // Ended (and so removed its output, if it failed) while this job was planned: the
    // claim made then may be gone.
    reclaim = reclaim || j->end_time >= planned.planned_at;
  }
  if (reclaim) {
    MR_ASSIGN_OR_RETURN(const jobs::OutputStore* output, OutputStoreOf(state_.options, spec));
    MR_RETURN_IF_ERROR(output->Claim(spec.output()));
  }
  auto rec = std::make_unique<JobRecord>();
  if (planned.uses_input) {
    rec->input_bytes = planned.input_bytes;
    for (auto& s : planned.splits) rec->maps.emplace_back().split = std::move(s);
  } else {
    rec->maps.resize(spec.num_maps());
  }

  rec->id = state_.next_job_id++;
  if (spec.name().empty()) spec.set_name(spec.job());
  rec->spec = std::move(spec);
  rec->policy = state_.policy;
  rec->reduces.resize(rec->spec.reducers());
  rec->submit_time = state_.Now();
  rec->trace_path = JoinPath(JoinPath(state_.state_dir, "traces"), JobIdString(rec->id) + ".jsonl");
  rec->profile_fold = std::make_shared<model::ProfileFold>();
  rec->trace = std::make_unique<TraceWriter>(rec->trace_path, state_.options.trace_queue.get(), rec->profile_fold);
  JobRecord& j = *rec;
  state_.jobs[rec->id] = std::move(rec);
  if (persistence_.store() != nullptr) {
    j.profile = persistence_.LoadProfile(j.spec.name());
    Status s = persistence_.PersistIdCounters(/*sync=*/true);
    persistence_.PersistJob(j, /*sync=*/true);
    if (!s.ok()) MR_LOG_ERROR("{}", s.ToString());
  }
  Trace(j, trace::JobSubmit{.t = j.submit_time,
                            .name = j.spec.name(),
                            .kind = j.spec.job(),
                            .maps = static_cast<int64_t>(j.maps.size()),
                            .reduces = static_cast<int64_t>(j.reduces.size()),
                            .policy = state_.policy,
                            .output = j.spec.output(),
                            .queue = j.spec.queue().empty() ? std::nullopt
                                                            : std::optional<std::string>(j.spec.queue())});
  TraceEstimate(j, state_.Now());
  placer_.PlaceReduces(j);
  FlushTraces(state_);
  MR_LOG_INFO("accepted {} ({}): {} maps, {} reduces", JobIdString(j.id), j.spec.job(), j.maps.size(),
              j.reduces.size());
  return j.id;
}

Status JobLifecycle::Kill(uint64_t job_id) {
  JobRecord* job = state_.FindJob(job_id);
  if (job == nullptr) return Status::NotFound("no job " + JobIdString(job_id));
  if (job->finished()) {
    return Status::FailedPrecondition(JobIdString(job_id) + " has already ended (" + JobStateName(job->state) +
                                      "): nothing to kill");
  }
  FinishJob(*job, JobState::kKilled, kKilledByUser);
  return Status::Ok();
}

void JobLifecycle::FinishJob(JobRecord& job, JobState state, const std::string& error) {
  if (job.finished()) return;
  job.state = state;
  job.error = error;
  job.end_time = state_.Now();
  // What status shows from now on, and after a restart (PersistJob stores it): the
  // estimate as it stood, and nothing running or holding a share.
  job.final_estimate = job.Estimate(job.end_time);
  job.final_progress = job.Progress();
  job.maps_running = 0;
  job.reduces_running = 0;
  // An ended job holds no share. Traced, so the chart's share line drops where status
  // does: without it the line ran on at the last share the policy gave (often 1) while
  // the page's card read 0.
  if (job.share != 0) Trace(job, trace::Share{.t = job.end_time, .share = 0.0});
  job.share = 0;
  state_.shares.erase(job.id);
  for (auto& [id, w] : state_.workers) {
    for (const auto& m : job.maps) {
      if (m.state != MapTask::State::kRunning) continue;
      if (m.worker == id) w.ReleaseSlot(false, m.unified);
      if (m.backup && m.backup->worker == id) w.ReleaseSlot(false, m.backup->unified);
    }
    for (const auto& t : job.reduces) {
      if (t.state != ReduceTask::State::kRunning) continue;
      if (t.worker == id) w.ReleaseSlot(true, t.unified);
      if (t.backup && t.backup->worker == id) w.ReleaseSlot(true, t.backup->unified);
    }
    w.outbox_finished.push_back(job.id);
  }
  const char* status = state == JobState::kSucceeded ? "ok" : state == JobState::kKilled ? "killed" : "failed";
  trace::JobEnd end{.t = job.end_time,
                    .status = status,
                    .error = error,
                    .response_time = job.end_time - job.submit_time,
                    .counters = job.counters};
  if (job.maps_done_time > 0) end.sojourn = job.maps_done_time - job.submit_time;
  Trace(job, std::move(end));
  Status flushed = job.trace->Flush();
  if (!flushed.ok()) MR_LOG_WARN("trace: {}", flushed.ToString());
  auto output = OutputStoreOf(state_.options, job.spec);
  if (state != JobState::kSucceeded) {
    // No partial output: the job created the directory (Submit refuses an existing one),
    // so the seal removes all of it, off this thread: through a data server that hangs it
    // waits for the I/O timeout, and heartbeats must not.
    if (!output.ok()) MR_LOG_WARN("{}: removing output: {}", JobIdString(job.id), output.status().ToString());
    MR_LOG_WARN("{} {}: {}", JobIdString(job.id), state == JobState::kKilled ? "killed" : "failed", error);
  }
  // The rest (the trace's copy, the ARIA profile; a failed job's removal) off the state
  // thread (job_seal.h), back through Sealed.
  job.sealing = true;
  SealWork work{.job_id = job.id,
                .name = job.spec.name(),
                .trace_path = job.trace_path,
                .output = job.spec.output(),
                .store = output.ok() ? *output : nullptr,
                .succeeded = state == JobState::kSucceeded,
                .trace_written = TraceWrittenWait(state_, job),
                .profile_fold = job.profile_fold};
  auto result = std::make_shared<SealResult>();
  auto seal = [work = std::move(work), result] { *result = SealJobTrace(work); };
  auto sealed = [this, result] { Sealed(*result); };
  if (state_.options.offload) {
    state_.options.offload(std::move(seal), std::move(sealed));
  } else {
    seal();
    sealed();
  }
}

void JobLifecycle::Sealed(const SealResult& r) {
  JobRecord* job = state_.FindJob(r.job_id);
  if (job == nullptr || !job->sealing) return;
  job->sealing = false;
  // The profile is read: an ended job kept for status holds no fold (O(attempts) memory).
  job->profile_fold.reset();
  job->trace->DropFold();
  const bool succeeded = job->state == JobState::kSucceeded;
  if (!succeeded && !r.output.ok()) MR_LOG_WARN("{}: removing output: {}", JobIdString(job->id), r.output.ToString());
  if (succeeded) {
    if (!r.output.ok()) MR_LOG_WARN("{}: finishing output: {}", JobIdString(job->id), r.output.ToString());
    MR_LOG_INFO("{} succeeded in {:.3f}s", JobIdString(job->id), job->end_time - job->submit_time);
  }
  // Stored once the output is whole, as before the seal moved off the state thread: a
  // master that dies sealing finds the job running with every task done and ends it again.
  persistence_.PersistJob(*job, /*sync=*/true);
  if (succeeded) {
    persistence_.UpdateProfile(*job);
    if (r.aria_profile) {
      if (r.parsed) MR_LOG_INFO("{}: ARIA profile parsed from the trace (resumed after a restart)", JobIdString(job->id));
      persistence_.StoreAriaProfile(*job, *r.aria_profile);
    } else {
      MR_LOG_WARN("{}: no ARIA profile: {}", JobIdString(job->id), r.profile.ToString());
    }
  }
  if (state_.on_job_end) state_.on_job_end(job->id);
}

void JobLifecycle::CompleteMap(JobRecord& job, MapTask& m, const proto::MapDone& done,
                               const google::protobuf::RepeatedPtrField<proto::Counter>& counters) {
  m.state = MapTask::State::kDone;
  m.start_time = done.start_time();
  m.end_time = done.end_time();
  m.partition_bytes.assign(done.partition_bytes().begin(), done.partition_bytes().end());
  m.bytes_in = done.bytes_in();
  m.bytes_out = done.bytes_out();
  job.maps_done++;
  job.map_seconds_done += std::max(0.0, done.end_time() - done.start_time());
  job.map_output_bytes += done.bytes_out();
  job.map_input_bytes += done.bytes_in();
  m.counters = counters;
  job.AddCounters(m.counters, +1);
  if (job.maps_done == static_cast<int>(job.maps.size())) {
    job.maps_done_time = state_.Now();
    Trace(job, trace::MapsDone{.t = job.maps_done_time, .sojourn = job.maps_done_time - job.submit_time});
  }
}

void JobLifecycle::ReexecuteMap(JobRecord& job, int index, const std::string& why) {
  MapTask& m = job.maps[index];
  if (m.state != MapTask::State::kDone) return;
  m.state = MapTask::State::kPending;
  job.maps_done--;
  job.maps_done_time = 0;  // the reducers wait for the re-run: the sojourn ends later
  job.map_seconds_done = std::max(0.0, job.map_seconds_done - std::max(0.0, m.end_time - m.start_time));
  job.map_output_bytes -= std::min(job.map_output_bytes, m.bytes_out);
  job.map_input_bytes -= std::min(job.map_input_bytes, m.bytes_in);
  // The done attempt is superseded: only the one that replaces it may count, and its
  // output goes now (not with the job) if its worker is still registered.
  job.AddCounters(m.counters, -1);
  m.counters.Clear();
  m.unreachable_reports.clear();
  registry_.DeleteOutput(m.worker, job.id, static_cast<uint32_t>(index), m.attempt);
  persistence_.PersistTask(job, false, index, false, false);  // its output is no longer one to adopt
  job.counters[kKilledMapsCounter]++;
  for (auto& [wid, sent] : job.locations_sent) sent[index] = false;
  Trace(job, trace::Reexecute{
                 .t = state_.Now(), .task = TaskIdString(TaskKind::kMap, index), .attempt = m.attempt, .reason = why});
  MR_LOG_INFO("{} {}: re-executing ({})", JobIdString(job.id), TaskIdString(TaskKind::kMap, index), why);
}

bool JobLifecycle::CommitMap(JobRecord& job, int index, uint32_t attempt) {
  const std::string to = JoinPath(job.spec.output(), MapPartName(index));
  auto output = OutputStoreOf(state_.options, job.spec);
  Status s = output.ok() ? (*output)->Rename(MapAttemptFile(job.spec, index, attempt), to) : output.status();
  if (!s.ok()) {
    FinishJob(job, JobState::kFailed, "cannot commit " + MapPartName(index) + ": " + s.message());
    return false;
  }
  Trace(job, trace::Commit{.t = state_.Now(), .task = TaskIdString(TaskKind::kMap, index), .attempt = attempt, .file = to});
  return true;
}

void JobLifecycle::CommitReduce(JobRecord& job, int index, const proto::TaskReport& r) {
  ReduceTask& t = job.reduces[index];
  std::string from = ReduceAttemptFile(job.spec, index, r.attempt());
  std::string to = JoinPath(job.spec.output(), PartName(index));
  auto output = OutputStoreOf(state_.options, job.spec);
  Status s = output.ok() ? (*output)->Rename(from, to) : output.status();
  if (!s.ok()) {
    FinishJob(job, JobState::kFailed, "cannot commit " + PartName(index) + ": " + s.message());
    return;
  }
  // Renaming first and recording second is safe: a restart between the two
  // re-runs the reduce and renames an identical file over the committed one.
  persistence_.PersistTask(job, true, index, /*committed=*/true, /*sync=*/true, &r.counters());
  t.state = ReduceTask::State::kDone;
  t.start_time = r.start_time();
  t.end_time = r.end_time();
  job.AddCounters(r.counters(), +1);
  job.reduces_done++;
  job.reduces_measured++;
  job.reduce_seconds_done += std::max(0.0, r.end_time() - r.start_time());
  Trace(job, trace::Commit{
                 .t = state_.Now(), .task = TaskIdString(TaskKind::kReduce, index), .attempt = r.attempt(), .file = to});
  if (job.reduces_done == static_cast<int>(job.reduces.size())) FinishJob(job, JobState::kSucceeded, "");
}

void JobLifecycle::ResetReduce(JobRecord& job, int index) {
  ReduceTask& t = job.reduces[index];
  job.shuffle_bytes_fetched -= std::min(job.shuffle_bytes_fetched, t.shuffle_bytes);
  t.state = ReduceTask::State::kUnplaced;
  t.maps_fetched = 0;
  t.shuffle_bytes = 0;
  t.shuffle_bytes_in_flight = 0;
}

void JobLifecycle::LoseWorker(WorkerId id, const std::string& why) {
  if (state_.workers.erase(id) == 0) return;
  MR_LOG_WARN("worker {} lost: {}", id, why);
  double now = state_.Now();
  for (auto& [jid, job] : state_.jobs) {
    if (job->finished()) continue;
    Trace(*job, trace::WorkerLost{.t = now, .worker = id, .reason = why});
    for (size_t i = 0; i < job->maps.size(); ++i) {
      MapTask& m = job->maps[i];
      if (m.queued_at == id) m.queued_at = 0;  // its queue returns to pending
      if (m.state != MapTask::State::kRunning) continue;
      const std::string task = TaskIdString(TaskKind::kMap, static_cast<int>(i));
      if (m.backup && m.backup->worker == id) {
        job->counters[kKilledMapsCounter]++;
        Trace(*job, trace::AttemptEnd{.t = now,
                                      .task = task,
                                      .attempt = m.backup->attempt,
                                      .worker = id,
                                      .start = m.backup->start_time,
                                      .status = "lost"});
        m.backup.reset();
      }
      if (m.worker != id) continue;
      const uint32_t lost_attempt = m.attempt;
      const double lost_start = m.start_time;
      if (m.backup) {
        m.PromoteBackup();  // runs on in its backup
      } else {
        m.state = MapTask::State::kPending;
        m.progress = 0;
        job->maps_running--;
      }
      job->counters[kKilledMapsCounter]++;
      Trace(*job, trace::AttemptEnd{
                      .t = now, .task = task, .attempt = lost_attempt, .worker = id, .start = lost_start, .status = "lost"});
    }
    for (size_t i = 0; i < job->reduces.size(); ++i) LoseReduceAttempts(*job, static_cast<int>(i), id);
    job->locations_sent.erase(id);
    // Completed map outputs on the lost worker are re-run if some reducer (or a reduce's
    // backup) has not fetched them yet (Hadoop's rule; we do not track which reducer has).
    bool needed = std::any_of(job->reduces.begin(), job->reduces.end(), [](const ReduceTask& t) {
      return t.state == ReduceTask::State::kUnplaced || t.state == ReduceTask::State::kFetching ||
             (t.backup && t.backup->attempt == 0);
    });
    for (size_t i = 0; needed && i < job->maps.size(); ++i) {
      if (job->maps[i].state == MapTask::State::kDone && job->maps[i].worker == id) {
        ReexecuteMap(*job, static_cast<int>(i), "worker " + std::to_string(id) + " lost");
      }
    }
  }
  for (auto& [jid, job] : state_.jobs) placer_.PlaceReduces(*job);
}

// Reduce `index`'s attempts on lost worker `id`: a backup there ends; an attempt there runs
// on in its backup if that runs, or else the reducer is placed again (a backup still
// fetching then becomes the placement, and gives back the slot it held).
void JobLifecycle::LoseReduceAttempts(JobRecord& job, int index, WorkerId id) {
  ReduceTask& t = job.reduces[index];
  const double now = state_.Now();
  const std::string task = TaskIdString(TaskKind::kReduce, index);
  if (t.backup && t.backup->worker == id) {
    if (t.backup->attempt != 0) {
      job.counters[kKilledReducesCounter]++;
      Trace(job, trace::AttemptEnd{.t = now, .task = task, .attempt = t.backup->attempt, .worker = id, .status = "lost"});
    }
    t.backup.reset();
  }
  if (t.worker != id || t.state == ReduceTask::State::kUnplaced || t.state == ReduceTask::State::kDone) return;
  if (t.state == ReduceTask::State::kRunning) {
    job.counters[kKilledReducesCounter]++;
    Trace(job, trace::AttemptEnd{.t = now, .task = task, .attempt = t.attempt, .worker = id, .status = "lost"});
    if (t.backup && t.backup->attempt != 0) {
      t.PromoteBackup();
      return;  // runs on in its backup
    }
    job.reduces_running--;
    if (t.backup) {  // fetching elsewhere already: that is its placement now
      const ReduceTask::Backup b = *t.backup;
      t.backup.reset();
      if (WorkerRecord* w = state_.FindWorker(b.worker)) w->ReleaseSlot(true, b.unified);
      ResetReduce(job, index);
      t.state = b.ready ? ReduceTask::State::kReady : ReduceTask::State::kFetching;
      t.worker = b.worker;
      t.maps_fetched = b.maps_fetched;
      Trace(job, trace::ReducePlace{.t = now, .task = task, .worker = b.worker, .maps_done = job.maps_done});
      return;
    }
  }
  ResetReduce(job, index);
}

// Finished jobs stay browsable (status, page, trace) until more than
// history_jobs have finished or, with history_max_age, until they ended that long
// ago; then they go, oldest first, with their store records and traces. Their
// outputs are the user's and are never touched (Hadoop's JobHistory retention:
// mapreduce.jobhistory.joblist.cache.size and max-age-ms).
void JobLifecycle::EnforceRetention() {
  const TrackerOptions& o = state_.options;
  size_t finished = 0;
  for (const auto& [id, job] : state_.jobs) finished += job->finished();
  const double expired_before = o.history_max_age > 0 ? state_.Now() - o.history_max_age : -1.0;
  for (auto it = state_.jobs.begin(); it != state_.jobs.end();) {
    const JobRecord& job = *it->second;
    if (!job.finished() || job.sealing || (finished <= o.history_jobs && job.end_time >= expired_before)) {
      ++it;
      continue;
    }
    persistence_.DeleteJob(it->first);
    if (state_.options.trace_queue) {
      state_.options.trace_queue->Remove(job.trace_path);  // after its queued lines
    } else {
      (void)RemoveAll(job.trace_path);
    }
    it = state_.jobs.erase(it);
    finished--;
  }
}

}  // namespace mr::master
