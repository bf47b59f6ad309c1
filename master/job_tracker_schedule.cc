// JobTracker: the scheduling round (snapshot -> policy -> assignments) and status.
#include <algorithm>
#include <cmath>

#include "common/log.h"
#include "master/job_paths.h"
#include "master/job_tracker.h"

namespace mr::master {

using nlohmann::json;
using sched::TaskKind;

namespace {
bool CanRun(const WorkerRecord& w, TaskKindFilter kind) {
  uint32_t own = kind == TaskKindFilter::kMap ? w.info.map_slots() : w.info.reduce_slots();
  return own + w.info.unified_slots() > 0;
}
}  // namespace

bool JobTracker::FailedTooOften(const JobRecord& job, WorkerId w) const {
  auto it = job.worker_failures.find(w);
  return it != job.worker_failures.end() && it->second >= options_.blacklist_after && workers_.count(w) > 0;
}

bool JobTracker::Blacklisted(const JobRecord& job, WorkerId w, TaskKindFilter kind) const {
  if (!FailedTooOften(job, w)) return false;
  // Hadoop's ignore-threshold: past a share of the cluster, failures say more about the job
  // than about the workers, and blacklisting would only starve it.
  size_t listed = 0;
  for (const auto& [id, n] : job.worker_failures) listed += FailedTooOften(job, id) ? 1 : 0;
  if (listed * 100 >= static_cast<size_t>(std::max(0, options_.blacklist_max_percent)) * workers_.size()) return false;
  // And never the last worker that could run the kind.
  for (const auto& [id, other] : workers_) {
    if (id != w && CanRun(other, kind) && !FailedTooOften(job, id)) return true;
  }
  return false;
}

bool JobTracker::OtherWorkerCanRun(const JobRecord& job, WorkerId except, TaskKindFilter kind) const {
  for (const auto& [id, w] : workers_) {
    if (id != except && CanRun(w, kind) && !Blacklisted(job, id, kind)) return true;
  }
  return false;
}

sched::Snapshot JobTracker::BuildSnapshot(WorkerId only_free) const {
  sched::Snapshot s;
  s.now = clock_->Now();
  bool unlimited = false;
  for (const auto& [id, w] : workers_) {
    sched::WorkerView v;
    v.id = id;
    v.map_slots = static_cast<int>(w.info.map_slots());
    v.reduce_slots = static_cast<int>(w.info.reduce_slots());
    v.unified_slots = static_cast<int>(w.info.unified_slots());
    if (id == only_free) {
      v.free_map = std::max(0, v.map_slots - w.running_map);
      v.free_reduce = std::max(0, v.reduce_slots - w.running_reduce);
      v.free_unified = std::max(0, v.unified_slots - w.running_unified);
    }
    v.speed = w.info.speed();
    v.shuffle_bandwidth = w.info.shuffle_bandwidth();
    if (v.shuffle_bandwidth > 0) s.shuffle_capacity += v.shuffle_bandwidth;
    else unlimited = true;
    s.workers.push_back(v);
  }
  if (unlimited) s.shuffle_capacity = 0;
  for (const auto& [id, job] : jobs_) {
    if (job->finished()) continue;
    sched::JobView v;
    v.id = id;
    v.name = job->spec.name();
    v.pool = job->spec.pool();
    v.weight = job->spec.weight() > 0 ? job->spec.weight() : 1.0;
    v.submit_time = job->submit_time;
    v.maps_total = static_cast<int>(job->maps.size());
    v.maps_running = job->maps_running;
    v.maps_done = job->maps_done;
    // Where possible a task is retried on another worker, and a worker that keeps failing
    // a job gets none of its maps; neither rule ever leaves a map without a worker.
    bool avoid = Blacklisted(*job, only_free, TaskKindFilter::kMap);
    bool elsewhere = !avoid && OtherWorkerCanRun(*job, only_free, TaskKindFilter::kMap);
    for (size_t i = 0; i < job->maps.size() && !avoid; ++i) {
      const MapTask& m = job->maps[i];
      if (m.state != MapTask::State::kPending) continue;
      if (elsewhere && m.last_failed_worker == only_free) continue;
      v.pending_maps.push_back(static_cast<int>(i));
    }
    v.reduces_total = static_cast<int>(job->reduces.size());
    v.reduces_running = job->reduces_running;
    v.reduces_done = job->reduces_done;
    for (size_t i = 0; i < job->reduces.size(); ++i) {
      const ReduceTask& t = job->reduces[i];
      if (t.state == ReduceTask::State::kFetching) v.reduces_fetching++;
      if (t.state == ReduceTask::State::kReady) v.ready_reduces.push_back({static_cast<int>(i), t.worker});
    }
    double produced = static_cast<double>(job->map_output_bytes);
    if (job->slow_start_reached) {
      v.shuffle_bytes_available = std::max(0.0, produced - static_cast<double>(job->shuffle_bytes_fetched));
    }
    v.estimate = job->Estimate(s.now);
    s.jobs.push_back(std::move(v));
  }
  return s;
}

namespace {
// The fields every assignment of a task carries.
proto::Assignment BaseAssignment(const JobRecord& job, proto::TaskKind kind, int index, uint32_t attempt,
                                 bool unified) {
  proto::Assignment a;
  a.set_job_id(job.id);
  a.set_kind(kind);
  a.set_index(static_cast<uint32_t>(index));
  a.set_attempt(attempt);
  a.set_num_maps(static_cast<uint32_t>(job.maps.size()));
  a.set_unified_slot(unified);
  *a.mutable_spec() = job.spec;
  return a;
}
}  // namespace

proto::Assignment JobTracker::MakeMapAssignment(JobRecord& job, int index, bool unified) {
  const MapTask& m = job.maps[index];
  proto::Assignment a = BaseAssignment(job, proto::MAP, index, m.attempt, unified);
  if (!m.split.path.empty()) {
    auto* s = a.mutable_split();
    s->set_path(m.split.path);
    s->set_file_index(m.split.file_index);
    s->set_offset(m.split.offset);
    s->set_length(m.split.length);
  }
  return a;
}

proto::Assignment JobTracker::MakeReduceAssignment(JobRecord& job, int index, bool place_only) {
  const ReduceTask& t = job.reduces[index];
  proto::Assignment a = BaseAssignment(job, proto::REDUCE, index, t.attempt, t.unified);
  a.set_place_only(place_only);
  if (!place_only) a.set_temp_output(ReduceAttemptFile(job.spec, index, t.attempt));
  return a;
}

void JobTracker::FailUnsendableMap(WorkerRecord& w, JobRecord& job, int index, size_t bytes) {
  MapTask& m = job.maps[index];
  const std::string why = "assignment of " + std::to_string(bytes) + " bytes exceeds the " +
                          std::to_string(kMaxAssignmentBytes) + "-byte message limit";
  const uint32_t attempt = m.next_attempt++;
  m.failures++;
  job.counters[kFailedMapsCounter]++;
  const double now = clock_->Now();
  const std::string task = TaskIdString(TaskKind::kMap, index);
  Trace(job, {{"event", "attempt_end"}, {"t", now}, {"start", now}, {"task", task}, {"attempt", attempt},
              {"worker", w.id}, {"slot", "map"}, {"status", "failed"}, {"error", why}});
  MR_LOG_WARN("{} {} attempt {} not sent: {}", JobIdString(job.id), task, attempt, why);
  if (m.failures >= options_.max_attempts) {
    FinishJob(job, JobState::kFailed, "map " + task + " failed " + std::to_string(m.failures) +
                                          " times; last error: " + why);
  }
}

size_t JobTracker::ReplyBudget(const proto::HeartbeatReply& reply) {
  size_t used = reply.ByteSizeLong();
  return used >= kMaxReplyBytes ? 0 : kMaxReplyBytes - used;
}

void JobTracker::SendOutbox(WorkerRecord& w, proto::HeartbeatReply* reply) {
  size_t budget = ReplyBudget(*reply);
  std::vector<proto::Assignment> later;
  for (auto& a : w.outbox_assignments) {
    JobRecord* job = FindJob(a.job_id());
    if (job == nullptr || job->finished()) continue;
    const size_t bytes = a.ByteSizeLong() + kAssignmentOverheadBytes;
    if (bytes > kMaxAssignmentBytes) {  // every attempt's would be as large: retrying cannot help
      FinishJob(*job, JobState::kFailed, "reduce " + TaskIdString(TaskKind::kReduce, static_cast<int>(a.index())) +
                                             " cannot be placed: assignment of " + std::to_string(bytes) +
                                             " bytes exceeds the " + std::to_string(kMaxAssignmentBytes) +
                                             "-byte message limit");
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

void JobTracker::ApplyDecision(WorkerRecord& w, const sched::Decision& d, proto::HeartbeatReply* reply) {
  size_t budget = ReplyBudget(*reply);
  int free_map = static_cast<int>(w.info.map_slots()) - w.running_map;
  int free_reduce = static_cast<int>(w.info.reduce_slots()) - w.running_reduce;
  int free_unified = static_cast<int>(w.info.unified_slots()) - w.running_unified;
  double now = clock_->Now();
  std::map<uint64_t, json> per_job;
  for (const auto& a : d.assignments) {
    JobRecord* job = FindJob(a.job);
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
      PersistTask(*job, false, a.index, false, false);
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
      PersistTask(*job, true, a.index, false, false);
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
    ev["policy"] = policy_;
    if (!d.note.empty()) ev["note"] = d.note;
    Trace(*FindJob(id), std::move(ev));
  }
}

void JobTracker::ReleaseSlot(WorkerRecord& w, bool reduce, bool unified) {
  int& n = unified ? w.running_unified : (reduce ? w.running_reduce : w.running_map);
  if (n > 0) n--;
}

void JobTracker::UpdateShares(const sched::Decision& d) {
  double now = clock_->Now();
  for (auto& [id, job] : jobs_) {
    if (job->finished()) continue;
    auto it = d.shuffle_shares.find(id);
    double share = it == d.shuffle_shares.end() ? 0.0 : std::clamp(it->second, 0.0, 1.0);
    if (std::fabs(share - job->share) > 1e-9 || shares_.count(id) == 0) {
      job->share = share;
      Trace(*job, {{"event", "share"}, {"t", now}, {"share", share}});
    }
    shares_[id] = share;
  }
}

proto::JobStatus JobTracker::MakeStatus(const JobRecord& job) const {
  proto::JobStatus st;
  st.set_job_id(job.id);
  st.set_name(job.spec.name());
  st.set_job(job.spec.job());
  st.set_state(JobStateName(job.state));
  st.set_phase(job.phase());
  st.set_maps_total(static_cast<uint32_t>(job.maps.size()));
  st.set_maps_done(static_cast<uint32_t>(job.maps_done));
  st.set_maps_running(static_cast<uint32_t>(job.maps_running));
  st.set_reduces_total(static_cast<uint32_t>(job.reduces.size()));
  st.set_reduces_done(static_cast<uint32_t>(job.reduces_done));
  st.set_reduces_running(static_cast<uint32_t>(job.reduces_running));
  st.set_shuffle_bytes_total(job.map_output_bytes);
  st.set_shuffle_bytes_fetched(job.shuffle_bytes_fetched);
  st.set_submit_time(job.submit_time);
  st.set_start_time(job.start_time);
  st.set_end_time(job.end_time);
  st.set_error(job.error);
  st.set_output(job.spec.output());
  st.set_share(job.share);
  sched::SizeEstimate e = job.final_estimate ? *job.final_estimate : job.Estimate(clock_->Now());
  st.set_est_map_seconds(e.map_seconds_total);
  st.set_est_shuffle_bytes(e.shuffle_bytes_total);
  st.set_estimate_source(sched::EstimateSourceName(e.source));
  st.set_policy(job.policy);
  st.set_trace_path(job.trace_path);
  st.set_shuffle_rate(job.finished() ? 0.0 : job.RecentShuffleRate(clock_->Now()));
  st.set_shuffle_rate_mean(job.MeanShuffleRate());
  for (const auto& [name, v] : job.counters) {
    auto* c = st.add_counters();
    c->set_name(name);
    c->set_value(v);
  }
  return st;
}

Result<proto::StatusReply> JobTracker::GetStatus(uint64_t job_id) const {
  proto::StatusReply reply;
  reply.set_workers(static_cast<uint32_t>(workers_.size()));
  reply.set_policy(policy_);
  if (job_id != 0) {
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) return mr::Status::NotFound("no job " + JobIdString(job_id));
    *reply.add_jobs() = MakeStatus(*it->second);
    return reply;
  }
  for (const auto& [id, job] : jobs_) *reply.add_jobs() = MakeStatus(*job);
  return reply;
}

}  // namespace mr::master
