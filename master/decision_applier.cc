#include "master/decision_applier.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "common/log.h"
#include "master/job_paths.h"
#include "master/job_trace.h"
#include "master/task_assignment.h"

namespace mr::master {

using sched::TaskKind;

void DecisionApplier::FailUnsendableMap(WorkerRecord& w, JobRecord& job, int index, size_t bytes) {
  MapTask& m = job.maps[index];
  const std::string why = "assignment of " + std::to_string(bytes) + " bytes exceeds the " +
                          std::to_string(kMaxAssignmentBytes) + "-byte message limit";
  const uint32_t attempt = m.next_attempt++;
  m.failures++;
  job.counters[kFailedMapsCounter]++;
  const double now = state_.Now();
  const std::string task = TaskIdString(TaskKind::kMap, index);
  Trace(job, trace::AttemptEnd{.t = now,
                               .task = task,
                               .attempt = attempt,
                               .worker = w.id,
                               .start = now,
                               .slot = "map",
                               .status = "failed",
                               .error = why});
  MR_LOG_WARN("{} {} attempt {} not sent: {}", JobIdString(job.id), task, attempt, why);
  if (m.failures >= state_.options.max_attempts) {
    lifecycle_.FinishJob(job, JobState::kFailed, "map " + task + " failed " + std::to_string(m.failures) +
                                                     " times; last error: " + why);
  }
}

void DecisionApplier::SendOutbox(WorkerRecord& w, proto::HeartbeatReply* reply) {
  size_t budget = ReplyBudget(*reply);
  std::vector<proto::Assignment> later;
  for (auto& a : w.outbox_assignments) {
    JobRecord* job = state_.FindJob(a.job_id());
    if (job == nullptr || job->finished()) continue;
    const size_t bytes = a.ByteSizeLong() + kAssignmentOverheadBytes;
    if (bytes > kMaxAssignmentBytes) {  // every attempt's would be as large: retrying cannot help
      lifecycle_.FinishJob(*job, JobState::kFailed,
                           "reduce " + TaskIdString(TaskKind::kReduce, static_cast<int>(a.index())) +
                               " cannot be placed: assignment of " + std::to_string(bytes) + " bytes exceeds the " +
                               std::to_string(kMaxAssignmentBytes) + "-byte message limit");
      continue;
    }
    if (bytes > budget) {
      later.push_back(std::move(a));
      continue;
    }
    budget -= bytes;
    *reply->add_assignments() = std::move(a);
  }
  w.outbox_assignments = std::move(later);
  std::vector<proto::MapOutputLocation> rest;
  for (auto& l : w.outbox_locations) {
    const size_t bytes = l.ByteSizeLong() + kAssignmentOverheadBytes;
    if (bytes > budget) {
      rest.push_back(std::move(l));
      continue;
    }
    budget -= bytes;
    *reply->add_map_outputs() = std::move(l);
  }
  w.outbox_locations = std::move(rest);
}

namespace {
int FreeSlots(const WorkerRecord& w, bool unified, TaskKind kind) {
  if (unified) return static_cast<int>(w.info.unified_slots()) - w.running_unified;
  return kind == TaskKind::kMap ? static_cast<int>(w.info.map_slots()) - w.running_map
                                : static_cast<int>(w.info.reduce_slots()) - w.running_reduce;
}
}  // namespace

void DecisionApplier::Apply(WorkerRecord& w, const sched::Decision& d, bool cluster_scope,
                            proto::HeartbeatReply* reply) {
  for (const auto& q : d.queue) {
    if (!queues_.Queue(q)) MR_LOG_DEBUG("ignored queue of map {} of job {} at worker {}", q.index, q.job, q.worker);
  }
  for (const auto& k : d.kills) {
    if (!killer_.Kill(k)) MR_LOG_DEBUG("ignored kill of attempt {} of task {} of job {}", k.attempt, k.index, k.job);
  }
  Round round{w, reply, ReplyBudget(*reply), state_.Now(), {}};
  for (const auto& a : d.assignments) {
    JobRecord* job = state_.FindJob(a.job);
    if (job == nullptr || job->finished()) continue;
    // Another worker's slots only when the policy sees the whole cluster: reserved now,
    // delivered with that worker's next heartbeat.
    WorkerRecord* target = a.worker == w.id ? &w : (cluster_scope ? state_.FindWorker(a.worker) : nullptr);
    if (target == nullptr) continue;
    if (FreeSlots(*target, a.slot == sched::SlotKind::kUnified, a.kind) <= 0) continue;
    if (a.kind == TaskKind::kMap) {
      StartMap(round, *target, *job, a);
    } else {
      StartReduce(round, *target, *job, a);
    }
  }
  for (auto& [id, tasks] : round.per_job) {
    trace::Decision ev{.t = round.now, .worker = w.id, .policy = state_.policy, .tasks = std::move(tasks)};
    if (!d.note.empty()) ev.note = d.note;
    Trace(*state_.FindJob(id), std::move(ev));
  }
}

bool DecisionApplier::Deliver(Round& round, WorkerRecord& target, proto::Assignment sent, size_t bytes) {
  if (&target != &round.heartbeating) {
    target.outbox_assignments.push_back(std::move(sent));  // SendOutbox budgets its reply
    return true;
  }
  if (bytes > round.budget) return false;  // this reply is full: a later heartbeat takes it
  round.budget -= bytes;
  *round.reply->add_assignments() = std::move(sent);
  return true;
}

void DecisionApplier::StartMap(Round& round, WorkerRecord& target, JobRecord& job, const sched::Assignment& a) {
  if (a.index < 0 || a.index >= static_cast<int>(job.maps.size())) return;
  MapTask& m = job.maps[a.index];
  const bool unified = a.slot == sched::SlotKind::kUnified;
  if (a.backup) {
    // A second attempt of a running task, on another worker, while it has none.
    if (m.state != MapTask::State::kRunning || m.awaiting || m.backup || m.worker == target.id) return;
  } else {
    if (m.state != MapTask::State::kPending) return;
    if (m.queued_at != 0 && m.queued_at != target.id) return;  // queued: only its worker runs it
  }
  proto::Assignment sent = MakeMapAssignment(job, a.index, unified);
  sent.set_attempt(m.next_attempt);
  // A map-only job's map writes its part file (committed by the master when it succeeds).
  if (job.spec.reducers() == 0) sent.set_temp_output(MapAttemptFile(job.spec, a.index, m.next_attempt));
  const size_t bytes = sent.ByteSizeLong() + kAssignmentOverheadBytes;
  if (bytes > kMaxAssignmentBytes) {  // no heartbeat could carry it: the attempt fails
    FailUnsendableMap(target, job, a.index, bytes);
    return;
  }
  if (!Deliver(round, target, std::move(sent), bytes)) return;
  const uint32_t attempt = m.next_attempt++;
  if (a.backup) {
    m.backup = MapTask::Backup{attempt, target.id, unified, round.now, 0};
    job.counters[kBackupMapsCounter]++;
  } else {
    m.state = MapTask::State::kRunning;
    m.attempt = attempt;
    m.worker = target.id;
    m.unified = unified;
    m.start_time = round.now;
    m.progress = 0;
    m.queued_at = 0;
    job.maps_running++;
  }
  (unified ? target.running_unified : target.running_map)++;
  persistence_.PersistTask(job, false, a.index, false, false);
  Started(round, target, job, a, attempt);
}

void DecisionApplier::StartReduce(Round& round, WorkerRecord& target, JobRecord& job, const sched::Assignment& a) {
  if (a.index >= 0 && a.index < static_cast<int>(job.reduces.size()) && a.backup) {
    PlaceReduceBackup(round, target, job, a);
    return;
  }
  if (a.backup || a.index < 0 || a.index >= static_cast<int>(job.reduces.size())) return;
  ReduceTask& t = job.reduces[a.index];
  if (!job.ReduceMayStart(t) || t.worker != target.id) return;
  const bool unified = a.slot == sched::SlotKind::kUnified;
  // Its placement (the same spec) was sent already, so it fits an empty reply. Sized as
  // it stands before this attempt (the budget has slack for the attempt number).
  const size_t bytes = MakeReduceAssignment(job, a.index, false).ByteSizeLong() + kAssignmentOverheadBytes;
  if (&target == &round.heartbeating && bytes > round.budget) return;
  const uint32_t attempt = t.next_attempt;
  t.attempt = attempt;
  t.unified = unified;
  Deliver(round, target, MakeReduceAssignment(job, a.index, /*place_only=*/false), bytes);
  t.next_attempt++;
  t.state = ReduceTask::State::kRunning;
  t.start_time = round.now;
  t.progress = 0;
  job.reduces_running++;
  (unified ? target.running_unified : target.running_reduce)++;
  persistence_.PersistTask(job, true, a.index, false, false);
  Started(round, target, job, a, attempt);
}

// A reduce backup starts as a placement on its worker, holding the slot it will run in: it
// fetches the partition there (the master queues the map locations) and runs once it holds
// every run (JobTracker::StartReadyReduceBackups).
void DecisionApplier::PlaceReduceBackup(Round& round, WorkerRecord& target, JobRecord& job,
                                        const sched::Assignment& a) {
  ReduceTask& t = job.reduces[a.index];
  if (t.state != ReduceTask::State::kRunning || t.backup || t.worker == target.id) return;
  const bool unified = a.slot == sched::SlotKind::kUnified;
  t.backup = ReduceTask::Backup{target.id, unified, false, 0, 0, round.now, 0};
  proto::Assignment place = MakeReduceBackupAssignment(job, a.index);
  const size_t bytes = place.ByteSizeLong() + kAssignmentOverheadBytes;
  if (!Deliver(round, target, std::move(place), bytes)) {
    t.backup.reset();
    return;
  }
  (unified ? target.running_unified : target.running_reduce)++;
  job.counters[kBackupReducesCounter]++;
  // The worker learns every done map's location (again, if it hosts another reducer of
  // the job: FetchScheduler::Place enqueues the ones it kept).
  job.locations_sent.try_emplace(target.id, std::vector<bool>(job.maps.size(), false));
  Trace(job, trace::ReducePlace{.t = round.now,
                                .task = TaskIdString(TaskKind::kReduce, a.index),
                                .worker = target.id,
                                .maps_done = job.maps_done,
                                .backup = true});
  round.per_job[a.job].push_back(TaskIdString(a.kind, a.index));
}

void DecisionApplier::Started(Round& round, const WorkerRecord& target, JobRecord& job, const sched::Assignment& a,
                              uint32_t attempt) {
  const bool unified = a.slot == sched::SlotKind::kUnified;
  if (job.start_time == 0) {
    job.start_time = round.now;
    Trace(job, trace::JobStart{.t = round.now});
  }
  trace::AttemptStart ev{.t = round.now,
                         .task = TaskIdString(a.kind, a.index),
                         .attempt = attempt,
                         .worker = target.id,
                         .slot = unified ? "unified" : (a.kind == TaskKind::kMap ? "map" : "reduce")};
  if (a.backup) ev.backup = true;
  Trace(job, std::move(ev));
  round.per_job[a.job].push_back(TaskIdString(a.kind, a.index));
}

void DecisionApplier::SendKills(WorkerRecord& w, proto::HeartbeatReply* reply) {
  for (auto& k : w.outbox_kills) *reply->add_kills() = std::move(k);
  w.outbox_kills.clear();
}

void DecisionApplier::UpdateShares(const sched::Decision& d) {
  double now = state_.Now();
  for (auto& [id, job] : state_.jobs) {
    if (job->finished()) continue;
    auto it = d.shuffle_shares.find(id);
    double share = it == d.shuffle_shares.end() ? 0.0 : std::clamp(it->second, 0.0, 1.0);
    if (std::fabs(share - job->share) > 1e-9 || state_.shares.count(id) == 0) {
      job->share = share;
      Trace(*job, trace::Share{.t = now, .share = share});
    }
    state_.shares[id] = share;
  }
}

void DecisionApplier::RecordAllocations(const sched::Decision& d) {
  if (d.allocations.empty()) return;
  const double now = state_.Now();
  std::vector<JobRecord*> replanned;  // resumed jobs whose first plan after a restart this is
  for (const sched::JobAllocation& a : d.allocations) {
    JobRecord* job = state_.FindJob(a.job);
    if (job == nullptr || job->finished()) continue;
    const int pool = static_cast<int>(a.slot);
    if (job->allocation_after_restart) replanned.push_back(job);
    job->allocation[pool] = a;
    job->allocation_time[pool] = now;
    Trace(*job, trace::Allocation{.t = now,
                                  .policy = state_.policy,
                                  .slot = std::string(sched::SlotKindName(a.slot)),
                                  .slots = a.slots,
                                  .min_slots = a.min_slots,
                                  .max_slots = a.max_slots,
                                  .rank = a.rank,
                                  .order = a.order,
                                  .metric = a.metric,
                                  .predicted = a.predicted,
                                  .completion = a.completion,
                                  .reason = job->allocation_after_restart ? std::optional<std::string>("restart")
                                                                          : std::nullopt});
  }
  for (JobRecord* job : replanned) job->allocation_after_restart = false;
}

}  // namespace mr::master
