#include "master/job_tracker.h"

#include <algorithm>

#include "common/clock.h"
#include "common/log.h"
#include "common/straggler.h"
#include "jobs/job_spec_params.h"
#include "master/job_trace.h"
#include "master/task_attempts.h"

namespace mr::master {

namespace {

// The worker's straggler injection as `mr worker` spells it: "off", "exp T=2 rate=0.5 seed=7".
std::string StragglerText(const proto::RegisterWorker& req) {
  StragglerSpec s;
  if (!req.has_straggler()) return s.ToString();
  s.enabled = true;
  s.offset = req.straggler().offset();
  s.rate = req.straggler().rate();
  s.tail = req.straggler().tail() == "pareto" ? StragglerTail::kPareto : StragglerTail::kExp;
  s.shape = req.straggler().shape();
  s.seed = req.straggler().seed();
  return s.ToString();
}

}  // namespace

JobTracker::JobTracker(const Clock* clock, std::unique_ptr<sched::Scheduler> scheduler, std::string policy,
                       std::string state_dir, std::unique_ptr<StateStore> store, TrackerOptions options)
    : scheduler_(std::move(scheduler)),
      state_(clock, std::move(policy), std::move(state_dir), options),
      persistence_(state_, std::move(store)),
      registry_(state_),
      placer_(state_, registry_, *scheduler_),
      lifecycle_(state_, persistence_, registry_, placer_),
      blame_(state_, lifecycle_, registry_, placer_),
      killer_(state_),
      reports_(state_, lifecycle_, persistence_, registry_, placer_, blame_, killer_),
      recovery_(state_, persistence_, lifecycle_, placer_),
      snapshots_(state_, registry_),
      queues_(state_, registry_),
      decisions_(state_, lifecycle_, persistence_, queues_, killer_),
      status_(state_),
      unified_(state_, lifecycle_, scheduler_->requires_unified_slots(), std::string(scheduler_->name())),
      speculator_(options.speculation) {
  status_.SetQueueSource([this] { return scheduler_->Queues(snapshots_.Build(0, /*every_worker_free=*/true)); });
}

Status JobTracker::Recover() { return recovery_.Recover(); }

Result<uint64_t> JobTracker::Submit(const proto::JobSpec& spec) {
  // The policy's admission (a capacity queue it knows) before anything is created: a refused
  // job gets no id, no output directory, no trace.
  MR_RETURN_IF_ERROR(scheduler_->AdmitJob(jobs::JobParamsFromSpec(spec)));
  Result<uint64_t> id = lifecycle_.Submit(spec);
  if (id.ok()) unified_.Check();  // past the grace already: the job fails now, with the reason
  return id;
}

void JobTracker::SubmitAsync(const proto::JobSpec& spec, std::function<void(Result<uint64_t>)> answer) {
  if (std::optional<uint64_t> id = lifecycle_.FindSubmission(spec)) return answer(*id);  // sent again
  const bool remote = !spec.input_server().empty() || !spec.output_server().empty();
  if (!remote || !state_.options.offload) return answer(Submit(spec));
  if (Status s = scheduler_->AdmitJob(jobs::JobParamsFromSpec(spec)); !s.ok()) return answer(s);
  auto planned = std::make_shared<Result<PlannedJob>>(Status::Internal("not planned"));
  auto work = [options = state_.options, spec, planned, at = state_.Now()] {
    *planned = JobLifecycle::PlanJob(options, spec, at);
  };
  auto done = [this, planned, answer = std::move(answer)] {
    if (!planned->ok()) return answer(planned->status());
    // The policy's admission again: its queues may have changed while the job was planned.
    if (Status s = scheduler_->AdmitJob(jobs::JobParamsFromSpec((*planned)->spec)); !s.ok()) return answer(s);
    Result<uint64_t> id = lifecycle_.Admit(std::move(**planned));
    if (id.ok()) unified_.Check();
    answer(id);
  };
  state_.options.offload(std::move(work), std::move(done));
}

Result<proto::RegisterReply> JobTracker::Register(const proto::RegisterWorker& req) {
  MR_RETURN_IF_ERROR(WorkerRegistry::Validate(req));
  const WorkerId id = registry_.Add(req).id;
  if (persistence_.store() != nullptr) {  // not synced: after a machine crash a worker number may repeat
    Status s = persistence_.PersistIdCounters(/*sync=*/false);
    if (!s.ok()) MR_LOG_ERROR("{}", s.ToString());
  }
  const std::string labels = state_.FindWorker(id)->labels.ToString();
  MR_LOG_INFO("worker {} registered: {}:{} map={} reduce={} unified={} speed={} straggler={} labels={}", id,
              req.host(), req.shuffle_port(), req.map_slots(), req.reduce_slots(), req.unified_slots(), req.speed(),
              StragglerText(req), labels.empty() ? "-" : labels);
  proto::RegisterReply reply;
  reply.set_worker_id(id);
  reply.set_master_time(state_.Now());
  reply.set_task_timeout_seconds(state_.options.task_timeout);
  recovery_.AdoptHeldOutputs(id, req, &reply);
  // Jobs waiting for a worker to host their reducers can place them now.
  for (auto& [jid, job] : state_.jobs) placer_.PlaceReduces(*job);
  unified_.OnRegister(*state_.FindWorker(id));
  return reply;
}

namespace {
// Free slots of w that a round may fill (a kind's running count never exceeds its slots,
// but a registration's slots are the master's word only).
int FreeSlots(const WorkerRecord& w) {
  return std::max(0, static_cast<int>(w.info.map_slots()) - w.running_map) +
         std::max(0, static_cast<int>(w.info.reduce_slots()) - w.running_reduce) +
         std::max(0, static_cast<int>(w.info.unified_slots()) - w.running_unified);
}
}  // namespace

Result<proto::HeartbeatReply> JobTracker::Heartbeat(const proto::Heartbeat& hb) {
  const double started = MonotonicSeconds();
  Result<proto::HeartbeatReply> reply = HeartbeatRound(hb);
  state_.timings.heartbeat_us.Add((MonotonicSeconds() - started) * 1e6);
  return reply;
}

proto::HeartbeatReply JobTracker::HeartbeatRound(const proto::Heartbeat& hb) {
  proto::HeartbeatReply reply;
  WorkerRecord* found = state_.FindWorker(hb.worker_id());
  if (found == nullptr) {
    reply.set_reregister(true);  // lost, or from before a master restart
    return reply;
  }
  WorkerRecord& w = *found;
  state_.heartbeats++;
  w.last_heartbeat = state_.Now();
  w.shuffle_bytes_sent = hb.shuffle_bytes_sent();
  reports_.Apply(w, hb);
  snapshots_.WorkerChanged(w.id);  // its reports may have changed its measured rates
  StartReadyReduceBackups(w);

  // Queued placements and locations go first (they are older); the rest of the reply's
  // size budget (kMaxReplyBytes) is the round's.
  for (uint64_t id : w.outbox_finished) reply.add_finished_jobs(id);
  w.outbox_finished.clear();
  for (auto& d : w.outbox_delete_outputs) *reply.add_delete_outputs() = std::move(d);
  w.outbox_delete_outputs.clear();
  decisions_.SendOutbox(w, &reply);
  // A round runs the policy only when this worker (or, for a policy that sees the whole
  // cluster, any worker) could take a task, or to refresh the shuffle shares; idle
  // heartbeats stay cheap at short intervals.
  double now = state_.Now();
  const bool cluster = scheduler_->scope() == sched::SnapshotScope::kCluster;
  // A policy that needs unified slots gets no round while no live worker has one.
  if (!unified_.Blocked() && (HasAssignableWork(w, cluster) || now - state_.last_round_time >= kShareRefreshSeconds)) {
    const double round_start = MonotonicSeconds();
    int free_slots = 0;
    if (cluster) {
      for (const auto& [id, other] : state_.workers) free_slots += FreeSlots(other);
    } else {
      free_slots = FreeSlots(w);
    }
    queues_.ReleaseBlacklisted();
    sched::Decision d = scheduler_->Schedule(snapshots_.Build(w.id, cluster));
    decisions_.Apply(w, d, cluster, &reply);
    decisions_.UpdateShares(d);
    decisions_.RecordAllocations(d);
    state_.last_round_time = now;
    const double round_us = (MonotonicSeconds() - round_start) * 1e6;
    state_.timings.round_us.Add(round_us);
    if (free_slots > 0) state_.timings.round_per_free_slot_us.Add(round_us / free_slots);
  }
  if (!unified_.Blocked()) Speculate(w, &reply);
  decisions_.SendKills(w, &reply);
  for (const auto& [job, share] : state_.shares) {
    auto* s = reply.add_shares();
    s->set_job_id(job);
    s->set_share(share);
  }
  FlushTraces(state_);
  return reply;
}

bool JobTracker::HasAssignableWork(const WorkerRecord& w, bool cluster) const {
  if (!cluster) return snapshots_.HasAssignableWork(w);
  for (const auto& [id, other] : state_.workers) {
    if (snapshots_.HasAssignableWork(other)) return true;
  }
  return false;
}

bool JobTracker::MaySpeculate(const WorkerRecord& w) const {
  const bool unified_free = static_cast<int>(w.info.unified_slots()) > w.running_unified;
  const bool map_free = unified_free || static_cast<int>(w.info.map_slots()) > w.running_map;
  const bool reduce_free = unified_free || static_cast<int>(w.info.reduce_slots()) > w.running_reduce;
  if (!map_free && !reduce_free) return false;
  bool maps = false, reduces = false;
  for (const auto& [id, job] : state_.jobs) {
    if (job->finished()) continue;
    // New work first: a map neither running nor done means no backup.
    if (job->maps_done + job->maps_running < static_cast<int>(job->maps.size())) return false;
    if (job->spec.speculation_off()) continue;
    maps = maps || job->maps_running > 0;
    reduces = reduces || job->reduces_running > 0;
  }
  return (map_free && maps) || (reduce_free && reduces);
}

void JobTracker::Speculate(WorkerRecord& w, proto::HeartbeatReply* reply) {
  if (!MaySpeculate(w)) return;
  const sched::Snapshot& snap = snapshots_.Build(w.id);
  sched::Decision d = speculator_.Speculate(snap);
  // No backup where the policy would not run the job (a capacity queue bound to a label).
  std::erase_if(d.assignments, [&](const sched::Assignment& a) {
    const sched::JobView* job = nullptr;
    for (const sched::JobView& j : snap.jobs) job = j.id == a.job ? &j : job;
    return job != nullptr && !scheduler_->MayRunOn(job->params, w.labels);
  });
  if (d.assignments.empty()) return;
  MR_LOG_INFO("speculation: {}", d.note);
  decisions_.Apply(w, d, /*cluster_scope=*/false, reply);
  // A reduce backup's worker learns where the map outputs are (with its next heartbeat). Only
  // a reduce backup adds a worker to a job's locations_sent: for the others every done map's
  // location went out when it was done (ReducePlacer::QueueLocation), and the walk costs
  // reducer hosts x maps per job.
  for (const sched::Assignment& a : d.assignments) {
    if (a.kind != sched::TaskKind::kReduce || !a.backup) continue;
    JobRecord* job = state_.FindJob(a.job);
    if (job != nullptr && !job->finished()) placer_.QueueLocations(*job);
  }
}

// A reduce backup that holds every run starts in the slot it has held since it was placed,
// once every map of its job is done (the rule JobRecord::ReduceMayStart states for reduces).
void JobTracker::StartReadyReduceBackups(WorkerRecord& w) {
  const double now = state_.Now();
  for (auto& [id, job] : state_.jobs) {
    if (job->finished() || job->maps_done < static_cast<int>(job->maps.size())) continue;
    for (size_t i = 0; i < job->reduces.size(); ++i) {
      ReduceTask& t = job->reduces[i];
      if (!t.backup || t.backup->worker != w.id || t.backup->attempt != 0 || !t.backup->ready) continue;
      ReduceTask::Backup& b = *t.backup;
      b.attempt = t.next_attempt++;
      b.start_time = now;
      w.outbox_assignments.push_back(MakeReduceBackupAssignment(*job, static_cast<int>(i)));
      persistence_.PersistTask(*job, true, static_cast<int>(i), false, false);  // the attempt id is used
      Trace(*job, trace::AttemptStart{.t = now,
                                      .task = TaskIdString(sched::TaskKind::kReduce, static_cast<int>(i)),
                                      .attempt = b.attempt,
                                      .worker = w.id,
                                      .slot = b.unified ? "unified" : "reduce",
                                      .backup = true});
    }
  }
}

Result<proto::StatusReply> JobTracker::GetStatus(uint64_t job_id) const { return status_.GetStatus(job_id); }

std::optional<JobShape> JobTracker::ShapeOf(uint64_t job_id) const {
  auto it = state_.jobs.find(job_id);
  if (it == state_.jobs.end()) return std::nullopt;
  return JobShape{static_cast<uint32_t>(it->second->maps.size()), static_cast<uint32_t>(it->second->reduces.size())};
}

Result<proto::StatusReply> JobTracker::GetJobStatus(uint64_t job_id) const { return status_.GetJobStatus(job_id); }

Result<proto::JobStatus> JobTracker::Kill(uint64_t job_id) {
  MR_RETURN_IF_ERROR(lifecycle_.Kill(job_id));
  proto::JobStatus st = status_.MakeStatus(*state_.FindJob(job_id));
  st.set_state(JobStateName(JobState::kKilled));  // killed, though its seal may still run
  st.set_phase("");
  return st;
}

Result<std::string> JobTracker::ApiGet(std::string_view path) const { return status_.ApiGet(path); }

void JobTracker::TaskAttempts(uint64_t job_id, const std::string& task,
                              std::function<void(Result<proto::TaskAttemptsReply>)> answer) {
  Result<AttemptsQuery> query = MakeAttemptsQuery(state_, job_id, task);
  if (!query.ok()) return answer(query.status());
  auto result = std::make_shared<Result<proto::TaskAttemptsReply>>(Status::Internal("not collected"));
  auto work = [q = std::move(query).value(), result] { *result = CollectTaskAttempts(q); };
  auto done = [this, result, answer = std::move(answer)] {
    if (result->ok()) NameAttemptWorkers(state_, **result);
    answer(std::move(*result));
  };
  if (!state_.options.offload) {
    work();
    return done();
  }
  state_.options.offload(std::move(work), std::move(done));
}

void JobTracker::Tick(const std::function<bool(WorkerId)>& heard) {
  double now = state_.Now();
  std::vector<WorkerId> lost;
  for (const auto& [id, w] : state_.workers) {
    if (now - w.last_heartbeat > state_.options.worker_timeout && !(heard && heard(id))) lost.push_back(id);
  }
  for (WorkerId id : lost) {
    lifecycle_.LoseWorker(id, "no heartbeat for " + std::to_string(state_.options.worker_timeout) + "s");
  }
  recovery_.ExpireMapRecovery();
  unified_.Check();
  lifecycle_.EnforceRetention();
  FlushTraces(state_);
}

}  // namespace mr::master
