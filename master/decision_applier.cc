#include "master/decision_applier.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "common/log.h"
#include "master/job_trace.h"
#include "master/task_assignment.h"

namespace mr::master {

using nlohmann::json;
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
  Trace(job, {{"event", "attempt_end"}, {"t", now}, {"start", now}, {"task", task}, {"attempt", attempt},
              {"worker", w.id}, {"slot", "map"}, {"status", "failed"}, {"error", why}});
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

void DecisionApplier::Apply(WorkerRecord& w, const sched::Decision& d, proto::HeartbeatReply* reply) {
  size_t budget = ReplyBudget(*reply);
  int free_map = static_cast<int>(w.info.map_slots()) - w.running_map;
  int free_reduce = static_cast<int>(w.info.reduce_slots()) - w.running_reduce;
  int free_unified = static_cast<int>(w.info.unified_slots()) - w.running_unified;
  double now = state_.Now();
  std::map<uint64_t, json> per_job;
  for (const auto& a : d.assignments) {
    JobRecord* job = state_.FindJob(a.job);
    if (job == nullptr || job->finished() || a.worker != w.id) continue;
    bool unified = a.slot == sched::SlotKind::kUnified;
    int& free = unified ? free_unified : (a.kind == TaskKind::kMap ? free_map : free_reduce);
    if (free <= 0) continue;
    uint32_t attempt = 0;
    if (a.kind == TaskKind::kMap) {
      if (a.index < 0 || a.index >= static_cast<int>(job->maps.size())) continue;
      MapTask& m = job->maps[a.index];
      if (m.state != MapTask::State::kPending) continue;
      proto::Assignment sent = MakeMapAssignment(*job, a.index, unified);
      sent.set_attempt(m.next_attempt);
      const size_t bytes = sent.ByteSizeLong() + kAssignmentOverheadBytes;
      if (bytes > kMaxAssignmentBytes) {  // no heartbeat could carry it: the attempt fails
        FailUnsendableMap(w, *job, a.index, bytes);
        continue;
      }
      if (bytes > budget) continue;  // this reply is full: a later heartbeat takes it
      budget -= bytes;
      m.state = MapTask::State::kRunning;
      m.attempt = attempt = m.next_attempt++;
      m.worker = w.id;
      m.unified = unified;
      m.start_time = now;
      job->maps_running++;
      (unified ? w.running_unified : w.running_map)++;
      persistence_.PersistTask(*job, false, a.index, false, false);
      *reply->add_assignments() = std::move(sent);
    } else {
      if (a.index < 0 || a.index >= static_cast<int>(job->reduces.size())) continue;
      ReduceTask& t = job->reduces[a.index];
      if (t.state != ReduceTask::State::kReady || t.worker != w.id) continue;
      // Its placement (the same spec) was sent already, so it fits an empty reply.
      const size_t bytes = MakeReduceAssignment(*job, a.index, false).ByteSizeLong() + kAssignmentOverheadBytes;
      if (bytes > budget) continue;
      budget -= bytes;
      t.state = ReduceTask::State::kRunning;
      t.attempt = attempt = t.next_attempt++;
      t.unified = unified;
      job->reduces_running++;
      (unified ? w.running_unified : w.running_reduce)++;
      persistence_.PersistTask(*job, true, a.index, false, false);
      *reply->add_assignments() = MakeReduceAssignment(*job, a.index, /*place_only=*/false);
    }
    free--;
    if (job->start_time == 0) {
      job->start_time = now;
      Trace(*job, {{"event", "job_start"}, {"t", now}});
    }
    Trace(*job, {{"event", "attempt_start"}, {"t", now}, {"task", TaskIdString(a.kind, a.index)},
                 {"attempt", attempt}, {"worker", w.id},
                 {"slot", unified ? "unified" : (a.kind == TaskKind::kMap ? "map" : "reduce")}});
    per_job[a.job]["tasks"].push_back(TaskIdString(a.kind, a.index));
  }
  for (auto& [id, ev] : per_job) {
    ev["event"] = "decision";
    ev["t"] = now;
    ev["worker"] = w.id;
    ev["policy"] = state_.policy;
    if (!d.note.empty()) ev["note"] = d.note;
    Trace(*state_.FindJob(id), std::move(ev));
  }
}

void DecisionApplier::UpdateShares(const sched::Decision& d) {
  double now = state_.Now();
  for (auto& [id, job] : state_.jobs) {
    if (job->finished()) continue;
    auto it = d.shuffle_shares.find(id);
    double share = it == d.shuffle_shares.end() ? 0.0 : std::clamp(it->second, 0.0, 1.0);
    if (std::fabs(share - job->share) > 1e-9 || state_.shares.count(id) == 0) {
      job->share = share;
      Trace(*job, {{"event", "share"}, {"t", now}, {"share", share}});
    }
    state_.shares[id] = share;
  }
}

}  // namespace mr::master
