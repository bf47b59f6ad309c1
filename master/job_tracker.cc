#include "master/job_tracker.h"

#include <algorithm>
#include <cmath>

#include "common/file_util.h"
#include "common/log.h"
#include "jobs/job.h"

namespace mr::master {

using nlohmann::json;
using sched::TaskKind;

namespace {
constexpr uint32_t kMaxReducers = 100000;
constexpr uint64_t kMinSplitBytes = 1;

std::string PartName(int index) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "part-r-%05d", index);
  return buf;
}

std::string AttemptDir(const proto::JobSpec& spec, int index, uint32_t attempt) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "_temporary/attempt-r-%05d-%u", index, attempt);
  return JoinPath(spec.output(), buf);
}

Status ValidateSpec(const proto::JobSpec& spec) {
  if (spec.reducers() == 0 || spec.reducers() > kMaxReducers) {
    return Status::InvalidArgument("reducers must be in 1.." + std::to_string(kMaxReducers));
  }
  if (spec.output().empty() || spec.output()[0] != '/') {
    return Status::InvalidArgument("output must be an absolute path");
  }
  if (spec.slow_start() < 0 || spec.slow_start() > 1) {
    return Status::InvalidArgument("slow-start must be in [0, 1]");
  }
  if (spec.split_bytes() < kMinSplitBytes) return Status::InvalidArgument("split size must be positive");
  for (const auto& in : spec.inputs()) {
    if (in.empty() || in[0] != '/') return Status::InvalidArgument("input '" + in + "' must be absolute");
  }
  return Status::Ok();
}
}  // namespace

JobTracker::JobTracker(const Clock* clock, std::unique_ptr<sched::Scheduler> scheduler,
                       std::string policy, std::string state_dir)
    : clock_(clock), scheduler_(std::move(scheduler)), policy_(std::move(policy)),
      state_dir_(std::move(state_dir)) {}

JobRecord* JobTracker::FindJob(uint64_t id) {
  auto it = jobs_.find(id);
  return it == jobs_.end() ? nullptr : it->second.get();
}

Result<uint64_t> JobTracker::Submit(const proto::JobSpec& spec_in) {
  proto::JobSpec spec = spec_in;
  MR_RETURN_IF_ERROR(ValidateSpec(spec));
  jobs::Params params(spec.params().begin(), spec.params().end());
  MR_ASSIGN_OR_RETURN(std::unique_ptr<jobs::Job> job, jobs::CreateJob(spec.job(), params));
  if (PathExists(spec.output())) {
    return Status::AlreadyExists("output directory " + spec.output() + " already exists");
  }
  std::vector<std::string> inputs(spec.inputs().begin(), spec.inputs().end());
  MR_ASSIGN_OR_RETURN(jobs::JobPlan plan, job->Plan(inputs, spec.reducers()));
  auto rec = std::make_unique<JobRecord>();
  if (plan.uses_input) {
    if (inputs.empty()) return Status::InvalidArgument("job '" + spec.job() + "' needs --input");
    MR_ASSIGN_OR_RETURN(std::vector<jobs::Split> splits, jobs::ComputeSplits(inputs, spec.split_bytes()));
    for (auto& s : splits) rec->maps.emplace_back().split = std::move(s);
  } else {
    if (spec.num_maps() == 0) return Status::InvalidArgument("job '" + spec.job() + "' needs --maps > 0");
    rec->maps.resize(spec.num_maps());
  }
  for (auto& [k, v] : plan.extra_params) (*spec.mutable_params())[k] = v;
  MR_RETURN_IF_ERROR(MakeDirs(JoinPath(spec.output(), "_temporary")));

  rec->id = next_job_id_++;
  if (spec.name().empty()) spec.set_name(spec.job());
  rec->spec = std::move(spec);
  rec->reduces.resize(rec->spec.reducers());
  rec->submit_time = clock_->Now();
  rec->trace_path = JoinPath(JoinPath(state_dir_, "traces"), JobIdString(rec->id) + ".jsonl");
  rec->trace = std::make_unique<TraceWriter>(rec->trace_path);
  JobRecord& j = *rec;
  jobs_[rec->id] = std::move(rec);
  Trace(j, {{"event", "job_submit"}, {"t", j.submit_time}, {"name", j.spec.name()},
            {"kind", j.spec.job()}, {"maps", j.maps.size()}, {"reduces", j.reduces.size()},
            {"policy", policy_}, {"output", j.spec.output()}});
  MaybePlaceReduces(j);
  FlushTraces();
  MR_LOG_INFO("accepted {} ({}): {} maps, {} reduces", JobIdString(j.id), j.spec.job(), j.maps.size(),
              j.reduces.size());
  return j.id;
}

proto::RegisterReply JobTracker::Register(const proto::RegisterWorker& req) {
  WorkerRecord w;
  w.id = next_worker_id_++;
  w.info = req;
  w.last_heartbeat = clock_->Now();
  workers_[w.id] = std::move(w);
  MR_LOG_INFO("worker {} registered: {}:{} map={} reduce={} unified={} speed={}", next_worker_id_ - 1,
              req.host(), req.shuffle_port(), req.map_slots(), req.reduce_slots(), req.unified_slots(),
              req.speed());
  proto::RegisterReply reply;
  reply.set_worker_id(next_worker_id_ - 1);
  reply.set_master_time(clock_->Now());
  // Jobs waiting for a worker to host their reducers can place them now.
  for (auto& [id, job] : jobs_) {
    if (!job->finished()) MaybePlaceReduces(*job);
  }
  return reply;
}

Result<proto::HeartbeatReply> JobTracker::Heartbeat(const proto::Heartbeat& hb) {
  auto wit = workers_.find(hb.worker_id());
  proto::HeartbeatReply reply;
  if (wit == workers_.end()) {
    reply.set_reregister(true);
    return reply;
  }
  WorkerRecord& w = wit->second;
  w.last_heartbeat = clock_->Now();
  for (const auto& r : hb.reports()) HandleReport(w, r);
  for (const auto& f : hb.fetches()) HandleFetch(f);

  sched::Decision d = scheduler_->Schedule(BuildSnapshot(w.id));
  ApplyDecision(w, d, &reply);
  UpdateShares(d);
  for (auto& a : w.outbox_assignments) *reply.add_assignments() = std::move(a);
  for (auto& l : w.outbox_locations) *reply.add_map_outputs() = std::move(l);
  for (uint64_t id : w.outbox_finished) reply.add_finished_jobs(id);
  w.outbox_assignments.clear();
  w.outbox_locations.clear();
  w.outbox_finished.clear();
  for (const auto& [job, share] : shares_) {
    auto* s = reply.add_shares();
    s->set_job_id(job);
    s->set_share(share);
  }
  FlushTraces();
  return reply;
}

void JobTracker::HandleReport(WorkerRecord& w, const proto::TaskReport& r) {
  JobRecord* job = FindJob(r.job_id());
  if (job == nullptr) return;
  if (r.kind() == proto::MAP) {
    if (r.index() < job->maps.size()) HandleMapReport(w, *job, r);
  } else if (r.kind() == proto::REDUCE) {
    if (r.index() < job->reduces.size()) HandleReduceReport(w, *job, r);
  }
}

void JobTracker::HandleMapReport(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r) {
  MapTask& m = job.maps[r.index()];
  bool current = m.state == MapTask::State::kRunning && m.worker == w.id && r.attempt() == m.attempts;
  if (r.state() != proto::SUCCEEDED && r.state() != proto::FAILED) return;
  if (!current) return;  // a stale or duplicate attempt: never committed twice
  ReleaseSlot(w, false, m.unified);
  job.maps_running--;
  json ev = {{"event", "attempt_end"}, {"t", r.end_time()}, {"task", TaskIdString(TaskKind::kMap, r.index())},
             {"attempt", r.attempt()}, {"worker", w.id}, {"start", r.start_time()},
             {"bytes_in", r.bytes_in()}, {"bytes_out", r.bytes_out()}, {"records_in", r.records_in()},
             {"records_out", r.records_out()}, {"slot", m.unified ? "unified" : "map"}};
  if (r.state() == proto::FAILED || job.finished()) {
    ev["status"] = "failed";
    ev["error"] = r.error();
    Trace(job, ev);
    m.state = MapTask::State::kPending;
    if (!job.finished() && m.attempts >= max_attempts_) {
      FinishJob(job, JobState::kFailed, "map " + TaskIdString(TaskKind::kMap, r.index()) + " failed " +
                                            std::to_string(m.attempts) + " times; last error: " + r.error());
    }
    return;
  }
  ev["status"] = "ok";
  Trace(job, ev);
  m.state = MapTask::State::kDone;
  m.done_attempt = r.attempt();
  m.start_time = r.start_time();
  m.end_time = r.end_time();
  m.partition_bytes.assign(r.partition_bytes().begin(), r.partition_bytes().end());
  m.bytes_in = r.bytes_in();
  m.bytes_out = r.bytes_out();
  job.maps_done++;
  job.map_seconds_done += std::max(0.0, r.end_time() - r.start_time());
  job.map_output_bytes += r.bytes_out();
  for (const auto& c : r.counters()) job.counters[c.name()] += c.value();
  MaybePlaceReduces(job);
  QueueLocations(job);
}

void JobTracker::HandleReduceReport(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r) {
  ReduceTask& t = job.reduces[r.index()];
  if (t.worker != w.id || job.finished()) return;
  switch (r.state()) {
    case proto::FETCHING:
    case proto::READY:
      if (t.state != ReduceTask::State::kFetching) return;
      job.shuffle_bytes_fetched += r.shuffle_bytes() - std::min(r.shuffle_bytes(), t.shuffle_bytes);
      t.shuffle_bytes = std::max(t.shuffle_bytes, r.shuffle_bytes());
      t.maps_fetched = r.maps_fetched();
      if (r.state() == proto::READY) t.state = ReduceTask::State::kReady;
      return;
    case proto::SUCCEEDED:
    case proto::FAILED:
      break;
    default:
      return;
  }
  if (t.state != ReduceTask::State::kRunning || r.attempt() != t.attempts) {
    if (r.state() == proto::FAILED && t.state == ReduceTask::State::kFetching) {
      FinishJob(job, JobState::kFailed, "reduce " + TaskIdString(TaskKind::kReduce, r.index()) +
                                            " could not fetch its input: " + r.error());
    }
    return;
  }
  ReleaseSlot(w, true, t.unified);
  job.reduces_running--;
  json ev = {{"event", "attempt_end"}, {"t", r.end_time()}, {"task", TaskIdString(TaskKind::kReduce, r.index())},
             {"attempt", r.attempt()}, {"worker", w.id}, {"start", r.start_time()},
             {"bytes_in", r.bytes_in()}, {"bytes_out", r.bytes_out()}, {"records_in", r.records_in()},
             {"records_out", r.records_out()}, {"slot", t.unified ? "unified" : "reduce"}};
  if (r.state() == proto::FAILED) {
    ev["status"] = "failed";
    ev["error"] = r.error();
    Trace(job, ev);
    t.state = ReduceTask::State::kReady;  // its fetched data is still on the worker
    if (t.attempts >= max_attempts_) {
      FinishJob(job, JobState::kFailed, "reduce " + TaskIdString(TaskKind::kReduce, r.index()) + " failed " +
                                            std::to_string(t.attempts) + " times; last error: " + r.error());
    }
    return;
  }
  ev["status"] = "ok";
  Trace(job, ev);
  for (const auto& c : r.counters()) job.counters[c.name()] += c.value();
  CommitReduce(job, r.index(), r);
}

void JobTracker::CommitReduce(JobRecord& job, int index, const proto::TaskReport& r) {
  ReduceTask& t = job.reduces[index];
  std::string from = JoinPath(AttemptDir(job.spec, index, r.attempt()), PartName(index));
  std::string to = JoinPath(job.spec.output(), PartName(index));
  Status s = RenameFile(from, to);
  if (!s.ok()) {
    FinishJob(job, JobState::kFailed, "cannot commit " + PartName(index) + ": " + s.message());
    return;
  }
  t.state = ReduceTask::State::kDone;
  t.start_time = r.start_time();
  t.end_time = r.end_time();
  job.reduces_done++;
  Trace(job, {{"event", "commit"}, {"t", clock_->Now()}, {"task", TaskIdString(TaskKind::kReduce, index)},
              {"attempt", r.attempt()}, {"file", to}});
  if (job.reduces_done == static_cast<int>(job.reduces.size())) FinishJob(job, JobState::kSucceeded, "");
}

void JobTracker::HandleFetch(const proto::FetchEvent& f) {
  JobRecord* job = FindJob(f.job_id());
  if (job == nullptr) return;
  std::string task = TaskIdString(TaskKind::kReduce, static_cast<int>(f.reduce_index()));
  std::string map = TaskIdString(TaskKind::kMap, static_cast<int>(f.map_index()));
  Trace(*job, {{"event", "fetch_start"}, {"t", f.start_time()}, {"task", task}, {"map", map},
               {"src_worker", f.src_worker()}});
  json end = {{"event", "fetch_end"}, {"t", f.end_time()}, {"task", task}, {"map", map},
              {"src_worker", f.src_worker()}, {"start", f.start_time()}, {"bytes", f.bytes()},
              {"status", f.ok() ? "ok" : "failed"}};
  if (!f.ok()) end["error"] = f.error();
  if (job->reduces.size() > f.reduce_index()) end["worker"] = job->reduces[f.reduce_index()].worker;
  Trace(*job, end);
}

void JobTracker::MaybePlaceReduces(JobRecord& job) {
  if (job.reduces_placed || job.finished()) return;
  const int n = static_cast<int>(job.maps.size());
  const int needed = static_cast<int>(std::ceil(job.spec.slow_start() * n));
  if (job.maps_done < needed) return;
  std::vector<WorkerRecord*> hosts;
  for (auto& [id, w] : workers_) {
    if (w.info.reduce_slots() + w.info.unified_slots() > 0) hosts.push_back(&w);
  }
  if (hosts.empty()) return;  // retried when a worker registers
  job.reduces_placed = true;
  double now = clock_->Now();
  for (size_t i = 0; i < job.reduces.size(); ++i) {
    WorkerRecord& w = *hosts[i % hosts.size()];
    ReduceTask& t = job.reduces[i];
    t.state = ReduceTask::State::kFetching;
    t.worker = w.id;
    job.locations_sent.try_emplace(w.id, std::vector<bool>(job.maps.size(), false));
    proto::Assignment a;
    a.set_job_id(job.id);
    a.set_kind(proto::REDUCE);
    a.set_index(static_cast<uint32_t>(i));
    a.set_place_only(true);
    a.set_num_maps(static_cast<uint32_t>(job.maps.size()));
    *a.mutable_spec() = job.spec;
    w.outbox_assignments.push_back(std::move(a));
    Trace(job, {{"event", "reduce_place"}, {"t", now}, {"task", TaskIdString(TaskKind::kReduce, static_cast<int>(i))},
                {"worker", w.id}, {"maps_done", job.maps_done}});
  }
  QueueLocations(job);
}

void JobTracker::QueueLocations(JobRecord& job) {
  for (auto& [wid, sent] : job.locations_sent) {
    auto wit = workers_.find(wid);
    if (wit == workers_.end()) continue;
    for (size_t i = 0; i < job.maps.size(); ++i) {
      const MapTask& m = job.maps[i];
      if (sent[i] || m.state != MapTask::State::kDone) continue;
      auto src = workers_.find(m.worker);
      if (src == workers_.end()) continue;
      sent[i] = true;
      proto::MapOutputLocation loc;
      loc.set_job_id(job.id);
      loc.set_map_index(static_cast<uint32_t>(i));
      loc.set_attempt(m.done_attempt);
      loc.set_host(src->second.info.host());
      loc.set_shuffle_port(src->second.info.shuffle_port());
      loc.set_worker_id(m.worker);
      loc.set_partition_bytes(m.bytes_out);
      wit->second.outbox_locations.push_back(std::move(loc));
    }
  }
}

void JobTracker::FinishJob(JobRecord& job, JobState state, const std::string& error) {
  if (job.finished()) return;
  job.state = state;
  job.error = error;
  job.end_time = clock_->Now();
  shares_.erase(job.id);
  Trace(job, {{"event", "job_end"}, {"t", job.end_time}, {"status", state == JobState::kSucceeded ? "ok" : "failed"},
              {"error", error}, {"response_time", job.end_time - job.submit_time}, {"counters", job.counters}});
  Status flushed = job.trace->Flush();
  if (state == JobState::kSucceeded) {
    Status s = WriteStringToFile(JoinPath(job.spec.output(), "_SUCCESS"), "");
    auto trace = ReadFileToString(job.trace_path);
    if (trace.ok()) s = WriteStringToFile(JoinPath(job.spec.output(), "_trace.jsonl"), *trace);
    Status rm = RemoveAll(JoinPath(job.spec.output(), "_temporary"));
    if (!s.ok() || !rm.ok()) MR_LOG_WARN("{}: finishing output: {} {}", JobIdString(job.id), s.ToString(), rm.ToString());
    MR_LOG_INFO("{} succeeded in {:.3f}s", JobIdString(job.id), job.end_time - job.submit_time);
  } else {
    // No partial output: the job created the directory, so it removes all of it.
    Status rm = RemoveAll(job.spec.output());
    if (!rm.ok()) MR_LOG_WARN("{}: removing output: {}", JobIdString(job.id), rm.ToString());
    MR_LOG_WARN("{} failed: {}", JobIdString(job.id), error);
  }
  if (!flushed.ok()) MR_LOG_WARN("trace: {}", flushed.ToString());
  for (auto& [id, w] : workers_) w.outbox_finished.push_back(job.id);
}

sched::Snapshot JobTracker::BuildSnapshot(WorkerId only_free) const {
  sched::Snapshot s;
  s.now = clock_->Now();
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
    if (v.shuffle_bandwidth > 0 && s.shuffle_capacity >= 0) s.shuffle_capacity += v.shuffle_bandwidth;
    else s.shuffle_capacity = -1;  // some worker unlimited
    s.workers.push_back(v);
  }
  if (s.shuffle_capacity < 0) s.shuffle_capacity = 0;
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
    for (size_t i = 0; i < job->maps.size(); ++i) {
      if (job->maps[i].state == MapTask::State::kPending) v.pending_maps.push_back(static_cast<int>(i));
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
    if (job->reduces_placed) v.shuffle_bytes_available = std::max(0.0, produced - job->shuffle_bytes_fetched);
    v.estimate = job->Estimate(s.now);
    s.jobs.push_back(std::move(v));
  }
  return s;
}

proto::Assignment JobTracker::MakeMapAssignment(JobRecord& job, int index, bool unified) {
  MapTask& m = job.maps[index];
  proto::Assignment a;
  a.set_job_id(job.id);
  a.set_kind(proto::MAP);
  a.set_index(static_cast<uint32_t>(index));
  a.set_attempt(m.attempts);
  a.set_num_maps(static_cast<uint32_t>(job.maps.size()));
  a.set_unified_slot(unified);
  *a.mutable_spec() = job.spec;
  if (!m.split.path.empty()) {
    auto* s = a.mutable_split();
    s->set_path(m.split.path);
    s->set_file_index(m.split.file_index);
    s->set_offset(m.split.offset);
    s->set_length(m.split.length);
  }
  return a;
}

void JobTracker::ApplyDecision(WorkerRecord& w, const sched::Decision& d, proto::HeartbeatReply* reply) {
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
    if (a.kind == TaskKind::kMap) {
      if (a.index < 0 || a.index >= static_cast<int>(job->maps.size())) continue;
      MapTask& m = job->maps[a.index];
      if (m.state != MapTask::State::kPending) continue;
      m.state = MapTask::State::kRunning;
      m.attempts++;
      m.worker = w.id;
      m.unified = unified;
      m.start_time = now;
      job->maps_running++;
      (unified ? w.running_unified : w.running_map)++;
      *reply->add_assignments() = MakeMapAssignment(*job, a.index, unified);
    } else {
      if (a.index < 0 || a.index >= static_cast<int>(job->reduces.size())) continue;
      ReduceTask& t = job->reduces[a.index];
      if (t.state != ReduceTask::State::kReady || t.worker != w.id) continue;
      t.state = ReduceTask::State::kRunning;
      t.attempts++;
      t.unified = unified;
      job->reduces_running++;
      (unified ? w.running_unified : w.running_reduce)++;
      proto::Assignment pa;
      pa.set_job_id(job->id);
      pa.set_kind(proto::REDUCE);
      pa.set_index(static_cast<uint32_t>(a.index));
      pa.set_attempt(t.attempts);
      pa.set_num_maps(static_cast<uint32_t>(job->maps.size()));
      pa.set_unified_slot(unified);
      pa.set_temp_output(JoinPath(AttemptDir(job->spec, a.index, t.attempts), PartName(a.index)));
      *pa.mutable_spec() = job->spec;
      *reply->add_assignments() = std::move(pa);
    }
    free--;
    if (job->start_time == 0) {
      job->start_time = now;
      Trace(*job, {{"event", "job_start"}, {"t", now}});
    }
    uint32_t attempt = a.kind == TaskKind::kMap ? job->maps[a.index].attempts : job->reduces[a.index].attempts;
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
    double share = it == d.shuffle_shares.end() ? 0.0 : it->second;
    if (std::fabs(share - job->share) > 1e-9 || shares_.count(id) == 0) {
      job->share = share;
      Trace(*job, {{"event", "share"}, {"t", now}, {"share", share}});
    }
    shares_[id] = share;
  }
}

void JobTracker::Trace(JobRecord& job, json event) {
  event["job"] = JobIdString(job.id);
  job.trace->Append(event);
}

void JobTracker::FlushTraces() {
  for (auto& [id, job] : jobs_) {
    Status s = job->trace->Flush();
    if (!s.ok()) MR_LOG_WARN("trace {}: {}", JobIdString(id), s.ToString());
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
  sched::SizeEstimate e = job.Estimate(clock_->Now());
  st.set_est_map_seconds(e.map_seconds_total);
  st.set_est_shuffle_bytes(e.shuffle_bytes_total);
  st.set_estimate_source(sched::EstimateSourceName(e.source));
  st.set_policy(policy_);
  st.set_trace_path(job.trace_path);
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
