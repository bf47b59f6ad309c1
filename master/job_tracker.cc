#include "master/job_tracker.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "common/file_util.h"
#include "common/log.h"
#include "jobs/job.h"
#include "master/job_paths.h"

namespace mr::master {

using nlohmann::json;
using sched::TaskKind;

namespace {
constexpr uint32_t kMaxReducers = 100000;
constexpr uint32_t kMaxSlots = 1024;

// fetch_end's `cause` (docs/trace-format.md).
const char* FetchCauseName(proto::FetchCause c) {
  switch (c) {
    case proto::FETCH_SOURCE_CORRUPT: return "source_corrupt";
    case proto::FETCH_LOCAL: return "local";
    case proto::FETCH_UNREACHABLE: return "unreachable";
    default: return "unspecified";
  }
}

Status ValidateSpec(const proto::JobSpec& spec) {
  if (spec.reducers() == 0 || spec.reducers() > kMaxReducers) {
    return Status::InvalidArgument("reducers must be in 1.." + std::to_string(kMaxReducers));
  }
  if (spec.output().empty() || spec.output()[0] != '/') {
    return Status::InvalidArgument("output must be an absolute path");
  }
  if (spec.output().find("/../") != std::string::npos || spec.output().size() > 4096) {
    return Status::InvalidArgument("output path must be normalised");
  }
  if (!(spec.slow_start() >= 0 && spec.slow_start() <= 1)) {
    return Status::InvalidArgument("slow-start must be in [0, 1]");
  }
  if (spec.split_bytes() == 0) return Status::InvalidArgument("split size must be positive");
  if (spec.num_maps() > 1000000) return Status::InvalidArgument("at most 1000000 maps");
  for (const auto& in : spec.inputs()) {
    if (in.empty() || in[0] != '/') return Status::InvalidArgument("input '" + in + "' must be absolute");
  }
  return Status::Ok();
}

// The trace event for a finished attempt; the caller adds status and error. Its counters
// are those the fields above do not already carry (spills, combine.*, user.*).
json AttemptEndEvent(const proto::TaskReport& r, WorkerId worker, const char* slot) {
  TaskKind kind = r.kind() == proto::MAP ? TaskKind::kMap : TaskKind::kReduce;
  json ev = {{"event", "attempt_end"}, {"t", r.end_time()}, {"task", TaskIdString(kind, static_cast<int>(r.index()))},
             {"attempt", r.attempt()}, {"worker", worker}, {"start", r.start_time()},
             {"bytes_in", r.bytes_in()}, {"bytes_out", r.bytes_out()}, {"records_in", r.records_in()},
             {"records_out", r.records_out()}, {"slot", slot}};
  const std::string phase = kind == TaskKind::kMap ? "map." : "reduce.";
  json counters = json::object();
  for (const auto& c : r.counters()) {
    const std::string& n = c.name();
    if (n.rfind(phase, 0) == 0 && (n.ends_with(".records_in") || n.ends_with(".records_out") ||
                                   n.ends_with(".bytes_in") || n.ends_with(".bytes_out"))) {
      continue;
    }
    counters[n] = c.value();
  }
  if (!counters.empty()) ev["counters"] = std::move(counters);
  return ev;
}

Status ValidateWorker(const proto::RegisterWorker& r) {
  if (r.map_slots() > kMaxSlots || r.reduce_slots() > kMaxSlots || r.unified_slots() > kMaxSlots) {
    return Status::InvalidArgument("slot counts must be at most " + std::to_string(kMaxSlots));
  }
  if (r.map_slots() + r.reduce_slots() + r.unified_slots() == 0) return Status::InvalidArgument("worker has no slots");
  if (r.shuffle_port() == 0 || r.shuffle_port() > 65535) return Status::InvalidArgument("bad shuffle port");
  if (!(r.speed() > 0 && r.speed() <= 1000)) return Status::InvalidArgument("speed must be in (0, 1000]");
  if (!(r.shuffle_bandwidth() >= 0 && r.shuffle_bandwidth() < 1e13)) return Status::InvalidArgument("bad bandwidth");
  if (r.host().empty() || r.host().size() > 255) return Status::InvalidArgument("bad host");
  return Status::Ok();
}
}  // namespace

JobTracker::JobTracker(const Clock* clock, std::unique_ptr<sched::Scheduler> scheduler, std::string policy,
                       std::string state_dir, std::unique_ptr<StateStore> store, TrackerOptions options)
    : clock_(clock), scheduler_(std::move(scheduler)), policy_(std::move(policy)),
      state_dir_(std::move(state_dir)), store_(std::move(store)), options_(options) {}

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
    for (auto& s : splits) {
      rec->input_bytes += s.length;
      rec->maps.emplace_back().split = std::move(s);
    }
  } else {
    if (spec.num_maps() == 0) return Status::InvalidArgument("job '" + spec.job() + "' needs --maps > 0");
    rec->maps.resize(spec.num_maps());
  }
  for (auto& [k, v] : plan.extra_params) (*spec.mutable_params())[k] = v;
  MR_RETURN_IF_ERROR(MakeDirs(JoinPath(spec.output(), "_temporary")));

  rec->id = next_job_id_++;
  if (spec.name().empty()) spec.set_name(spec.job());
  rec->spec = std::move(spec);
  rec->policy = policy_;
  rec->reduces.resize(rec->spec.reducers());
  rec->submit_time = clock_->Now();
  rec->trace_path = JoinPath(JoinPath(state_dir_, "traces"), JobIdString(rec->id) + ".jsonl");
  rec->trace = std::make_unique<TraceWriter>(rec->trace_path);
  JobRecord& j = *rec;
  jobs_[rec->id] = std::move(rec);
  if (store_) {
    auto profile = store_->GetProfile(j.spec.name());
    if (profile.ok()) j.profile = *profile;
    Status s = PersistIdCounters(/*sync=*/true);
    PersistJob(j, /*sync=*/true);
    if (!s.ok()) MR_LOG_ERROR("{}", s.ToString());
  }
  Trace(j, {{"event", "job_submit"}, {"t", j.submit_time}, {"name", j.spec.name()},
            {"kind", j.spec.job()}, {"maps", j.maps.size()}, {"reduces", j.reduces.size()},
            {"policy", policy_}, {"output", j.spec.output()}});
  TraceEstimate(j);
  PlaceReduces(j);
  FlushTraces();
  MR_LOG_INFO("accepted {} ({}): {} maps, {} reduces", JobIdString(j.id), j.spec.job(), j.maps.size(),
              j.reduces.size());
  return j.id;
}

Result<proto::RegisterReply> JobTracker::Register(const proto::RegisterWorker& req) {
  MR_RETURN_IF_ERROR(ValidateWorker(req));
  WorkerRecord w;
  w.id = next_worker_id_++;
  w.info = req;
  w.last_heartbeat = clock_->Now();
  WorkerId id = w.id;
  workers_[id] = std::move(w);
  if (store_) {  // not synced: after a machine crash a worker number may repeat, nothing worse
    Status s = PersistIdCounters(/*sync=*/false);
    if (!s.ok()) MR_LOG_ERROR("{}", s.ToString());
  }
  MR_LOG_INFO("worker {} registered: {}:{} map={} reduce={} unified={} speed={}", id, req.host(),
              req.shuffle_port(), req.map_slots(), req.reduce_slots(), req.unified_slots(), req.speed());
  proto::RegisterReply reply;
  reply.set_worker_id(id);
  reply.set_master_time(clock_->Now());
  reply.set_task_timeout_seconds(options_.task_timeout);
  AdoptHeldOutputs(id, req, &reply);
  // Jobs waiting for a worker to host their reducers can place them now.
  for (auto& [jid, job] : jobs_) PlaceReduces(*job);
  return reply;
}

Result<proto::HeartbeatReply> JobTracker::Heartbeat(const proto::Heartbeat& hb) {
  auto wit = workers_.find(hb.worker_id());
  proto::HeartbeatReply reply;
  if (wit == workers_.end()) {
    reply.set_reregister(true);  // lost, or from before a master restart
    return reply;
  }
  WorkerRecord& w = wit->second;
  heartbeats_++;
  w.last_heartbeat = clock_->Now();
  w.shuffle_bytes_sent = hb.shuffle_bytes_sent();
  for (const auto& r : hb.reports()) HandleReport(w, r);
  for (const auto& f : hb.fetches()) HandleFetch(w, f);
  for (const auto& e : hb.served()) {
    JobRecord* job = FindJob(e.job_id());
    if (job == nullptr) continue;
    Trace(*job, {{"event", "served"}, {"t", hb.served_until()}, {"start", hb.served_since()},
                 {"worker", hb.worker_id()}, {"bytes", e.bytes()}});
    if (!job->finished()) job->RecordServed(hb.served_since(), hb.served_until(), e.bytes());
  }

  // Queued placements and locations go first (they are older); the rest of the reply's
  // size budget (kMaxReplyBytes) is the round's.
  for (uint64_t id : w.outbox_finished) reply.add_finished_jobs(id);
  w.outbox_finished.clear();
  for (auto& d : w.outbox_delete_outputs) *reply.add_delete_outputs() = std::move(d);
  w.outbox_delete_outputs.clear();
  SendOutbox(w, &reply);
  // A round runs the policy only when this worker could take a task, or to
  // refresh the shuffle shares; idle heartbeats stay cheap at short intervals.
  double now = clock_->Now();
  if (HasAssignableWork(w) || now - last_round_time_ >= kShareRefreshSeconds) {
    sched::Decision d = scheduler_->Schedule(BuildSnapshot(w.id));
    ApplyDecision(w, d, &reply);
    UpdateShares(d);
    last_round_time_ = now;
  }
  for (const auto& [job, share] : shares_) {
    auto* s = reply.add_shares();
    s->set_job_id(job);
    s->set_share(share);
  }
  FlushTraces();
  return reply;
}

bool JobTracker::HasAssignableWork(const WorkerRecord& w) const {
  bool free_map = static_cast<int>(w.info.map_slots()) > w.running_map;
  bool free_reduce = static_cast<int>(w.info.reduce_slots()) > w.running_reduce;
  bool free_unified = static_cast<int>(w.info.unified_slots()) > w.running_unified;
  if (!free_map && !free_reduce && !free_unified) return false;
  for (const auto& [id, job] : jobs_) {
    if (job->finished()) continue;
    if ((free_map || free_unified) && job->maps_done + job->maps_running < static_cast<int>(job->maps.size())) return true;
    if (free_reduce || free_unified) {
      for (const auto& t : job->reduces) {
        if (t.state == ReduceTask::State::kReady && t.worker == w.id) return true;
      }
    }
  }
  return false;
}

void JobTracker::HandleReport(WorkerRecord& w, const proto::TaskReport& r) {
  JobRecord* job = FindJob(r.job_id());
  if (job == nullptr || job->finished()) return;
  if (r.kind() == proto::MAP && r.index() < job->maps.size()) HandleMapReport(w, *job, r);
  if (r.kind() == proto::REDUCE && r.index() < job->reduces.size()) HandleReduceReport(w, *job, r);
}

void JobTracker::CountFailure(JobRecord& job, WorkerId w) {
  if (++job.worker_failures[w] == options_.blacklist_after) {
    // In force only while enough other workers remain (Blacklisted): the trace says which.
    bool in_force = Blacklisted(job, w, TaskKindFilter::kMap);
    Trace(job, {{"event", "blacklist"}, {"t", clock_->Now()}, {"worker", w}, {"in_force", in_force}});
  }
}

void JobTracker::HandleMapReport(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r) {
  MapTask& m = job.maps[r.index()];
  if (r.state() != proto::SUCCEEDED && r.state() != proto::FAILED) return;
  // A stale or duplicate attempt is never accepted: one attempt per task.
  if (m.state != MapTask::State::kRunning || m.worker != w.id || r.attempt() != m.attempt) {
    DeleteIfSuperseded(w, job, r);
    return;
  }
  ReleaseSlot(w, false, m.unified);
  job.maps_running--;
  json ev = AttemptEndEvent(r, w.id, m.unified ? "unified" : "map");
  if (r.state() == proto::FAILED) {
    ev["status"] = "failed";
    ev["error"] = r.error();
    Trace(job, ev);
    m.state = MapTask::State::kPending;
    m.failures++;
    job.counters[kFailedMapsCounter]++;
    m.last_failed_worker = w.id;
    CountFailure(job, w.id);
    if (m.failures >= options_.max_attempts) {
      FinishJob(job, JobState::kFailed, "map " + TaskIdString(TaskKind::kMap, r.index()) + " failed " +
                                            std::to_string(m.failures) + " times; last error: " + r.error());
    }
    return;
  }
  ev["status"] = "ok";
  Trace(job, ev);
  proto::MapDone done;
  done.set_attempt(m.attempt);
  done.set_host(w.info.host());
  done.set_shuffle_port(w.info.shuffle_port());
  *done.mutable_partition_bytes() = r.partition_bytes();
  done.set_bytes_in(r.bytes_in());
  done.set_bytes_out(r.bytes_out());
  done.set_start_time(r.start_time());
  done.set_end_time(r.end_time());
  CompleteMap(job, m, done, r.counters());
  PersistMapDone(job, static_cast<int>(r.index()), done);
  TraceEstimate(job);
  // Ties go to this worker: the reply to its completion heartbeat then carries the
  // placement and the location, and a small job's reduce starts fetching at once
  // instead of waiting for another worker's next heartbeat.
  PlaceReduces(job, w.id);
  QueueLocations(job);
}

void JobTracker::CompleteMap(JobRecord& job, MapTask& m, const proto::MapDone& done,
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
}

void JobTracker::HandleReduceReport(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r) {
  ReduceTask& t = job.reduces[r.index()];
  if (t.worker != w.id) return;
  if (r.state() == proto::FETCHING || r.state() == proto::READY) {
    if (t.state != ReduceTask::State::kFetching) return;
    job.shuffle_bytes_fetched += r.shuffle_bytes() - std::min(r.shuffle_bytes(), t.shuffle_bytes);
    t.shuffle_bytes = std::max(t.shuffle_bytes, r.shuffle_bytes());
    t.maps_fetched = r.maps_fetched();
    if (r.state() == proto::READY && t.maps_fetched == job.maps.size()) t.state = ReduceTask::State::kReady;
    return;
  }
  if (r.state() == proto::FAILED && t.state == ReduceTask::State::kFetching) {
    FailFetchingReduce(w, job, r);
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
void JobTracker::ReturnReduceToFetching(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r) {
  ReduceTask& t = job.reduces[r.index()];
  if (t.state != ReduceTask::State::kRunning || r.attempt() != t.attempt) return;
  ReleaseSlot(w, true, t.unified);
  job.reduces_running--;
  job.counters[kKilledReducesCounter]++;
  json ev = AttemptEndEvent(r, w.id, t.unified ? "unified" : "reduce");
  ev["status"] = "killed";
  ev["error"] = r.error();
  Trace(job, ev);
  t.state = ReduceTask::State::kFetching;
  t.maps_fetched = std::min<uint32_t>(r.maps_fetched(), static_cast<uint32_t>(job.maps.size()) - 1);
}

void JobTracker::HandleReduceEnd(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r) {
  ReduceTask& t = job.reduces[r.index()];
  if (t.state != ReduceTask::State::kRunning || r.attempt() != t.attempt) return;
  ReleaseSlot(w, true, t.unified);
  job.reduces_running--;
  json ev = AttemptEndEvent(r, w.id, t.unified ? "unified" : "reduce");
  if (r.state() == proto::FAILED) {
    ev["status"] = "failed";
    ev["error"] = r.error();
    Trace(job, ev);
    t.failures++;
    job.counters[kFailedReducesCounter]++;
    CountFailure(job, w.id);
    if (t.failures >= options_.max_attempts) {
      FinishJob(job, JobState::kFailed, "reduce " + TaskIdString(TaskKind::kReduce, r.index()) + " failed " +
                                            std::to_string(t.failures) + " times; last error: " + r.error());
    } else if (Blacklisted(job, w.id, TaskKindFilter::kReduce)) {
      ResetReduce(job, r.index());  // fetch again on a healthier worker
      PlaceReduces(job);
    } else {
      t.state = ReduceTask::State::kReady;  // its fetched data is still on the worker
    }
    return;
  }
  ev["status"] = "ok";
  Trace(job, ev);
  CommitReduce(job, r.index(), r);
}

void JobTracker::CommitReduce(JobRecord& job, int index, const proto::TaskReport& r) {
  ReduceTask& t = job.reduces[index];
  std::string from = ReduceAttemptFile(job.spec, index, r.attempt());
  std::string to = JoinPath(job.spec.output(), PartName(index));
  Status s = RenameFile(from, to);
  if (!s.ok()) {
    FinishJob(job, JobState::kFailed, "cannot commit " + PartName(index) + ": " + s.message());
    return;
  }
  // Renaming first and recording second is safe: a restart between the two
  // re-runs the reduce and renames an identical file over the committed one.
  PersistTask(job, true, index, /*committed=*/true, /*sync=*/true, &r.counters());
  t.state = ReduceTask::State::kDone;
  t.start_time = r.start_time();
  t.end_time = r.end_time();
  job.AddCounters(r.counters(), +1);
  job.reduces_done++;
  Trace(job, {{"event", "commit"}, {"t", clock_->Now()}, {"task", TaskIdString(TaskKind::kReduce, index)},
              {"attempt", r.attempt()}, {"file", to}});
  if (job.reduces_done == static_cast<int>(job.reduces.size())) FinishJob(job, JobState::kSucceeded, "");
}

void JobTracker::HandleFetch(WorkerRecord& w, const proto::FetchEvent& f) {
  JobRecord* job = FindJob(f.job_id());
  if (job == nullptr || f.reduce_index() >= job->reduces.size() || f.map_index() >= job->maps.size()) return;
  std::string task = TaskIdString(TaskKind::kReduce, static_cast<int>(f.reduce_index()));
  std::string map = TaskIdString(TaskKind::kMap, static_cast<int>(f.map_index()));
  Trace(*job, {{"event", "fetch_start"}, {"t", f.start_time()}, {"task", task}, {"map", map},
               {"src_worker", f.src_worker()}});
  json end = {{"event", "fetch_end"}, {"t", f.end_time()}, {"task", task}, {"map", map},
              {"src_worker", f.src_worker()}, {"start", f.start_time()}, {"bytes", f.bytes()},
              {"status", f.ok() ? "ok" : "failed"}, {"worker", job->reduces[f.reduce_index()].worker}};
  if (!f.ok()) {
    end["error"] = f.error();
    end["cause"] = FetchCauseName(f.cause());
  }
  Trace(*job, end);
  if (job->finished()) return;
  if (f.ok()) {
    job->RecordFetch(f.start_time(), f.end_time(), f.bytes());
  } else {
    BlameFetchFailure(w, *job, f);
  }
}

void JobTracker::PlaceReduces(JobRecord& job, WorkerId prefer) {
  if (job.finished()) return;
  if (!job.slow_start_reached) {
    const int needed = static_cast<int>(std::ceil(job.spec.slow_start() * static_cast<double>(job.maps.size())));
    if (job.maps_done < needed) return;
    job.slow_start_reached = true;
  }
  std::vector<WorkerRecord*> hosts;
  for (auto& [id, w] : workers_) {
    if (w.info.reduce_slots() + w.info.unified_slots() > 0 && !Blacklisted(job, id, TaskKindFilter::kReduce)) hosts.push_back(&w);
  }
  if (hosts.empty()) {
    for (auto& [id, w] : workers_) {
      if (w.info.reduce_slots() + w.info.unified_slots() > 0) hosts.push_back(&w);
    }
  }
  if (hosts.empty()) return;  // retried when a worker registers
  std::map<WorkerId, int> load;
  for (const auto& t : job.reduces) {
    if (t.state != ReduceTask::State::kUnplaced && t.state != ReduceTask::State::kDone) load[t.worker]++;
  }
  double now = clock_->Now();
  for (size_t i = 0; i < job.reduces.size(); ++i) {
    ReduceTask& t = job.reduces[i];
    if (t.state != ReduceTask::State::kUnplaced) continue;
    // Where it failed last comes last: a reducer that failed on its own disk moves.
    auto rank = [&](const WorkerRecord* x) {
      return std::tuple(x->id == t.last_failed_worker, load[x->id], x->id != prefer);
    };
    WorkerRecord* w = *std::min_element(hosts.begin(), hosts.end(),
                                        [&](WorkerRecord* a, WorkerRecord* b) { return rank(a) < rank(b); });
    load[w->id]++;
    t.state = ReduceTask::State::kFetching;
    t.worker = w->id;
    t.maps_fetched = 0;
    t.shuffle_bytes = 0;
    job.locations_sent.try_emplace(w->id, std::vector<bool>(job.maps.size(), false));
    w->outbox_assignments.push_back(MakeReduceAssignment(job, static_cast<int>(i), /*place_only=*/true));
    Trace(job, {{"event", "reduce_place"}, {"t", now}, {"task", TaskIdString(TaskKind::kReduce, static_cast<int>(i))},
                {"worker", w->id}, {"maps_done", job.maps_done}});
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
      loc.set_attempt(m.attempt);
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
  // What status shows from now on, and after a restart (PersistJob stores it): the
  // estimate as it stood, and nothing running or holding a share.
  job.final_estimate = job.Estimate(job.end_time);
  job.maps_running = 0;
  job.reduces_running = 0;
  job.share = 0;
  shares_.erase(job.id);
  for (auto& [id, w] : workers_) {
    for (const auto& m : job.maps) {
      if (m.state == MapTask::State::kRunning && m.worker == id) ReleaseSlot(w, false, m.unified);
    }
    for (const auto& t : job.reduces) {
      if (t.state == ReduceTask::State::kRunning && t.worker == id) ReleaseSlot(w, true, t.unified);
    }
    w.outbox_finished.push_back(job.id);
  }
  const char* status = state == JobState::kSucceeded ? "ok" : state == JobState::kKilled ? "killed" : "failed";
  Trace(job, {{"event", "job_end"}, {"t", job.end_time}, {"status", status},
              {"error", error}, {"response_time", job.end_time - job.submit_time}, {"counters", job.counters}});
  Status flushed = job.trace->Flush();
  if (state == JobState::kSucceeded) {
    Status s = WriteStringToFile(JoinPath(job.spec.output(), "_SUCCESS"), "");
    auto trace = ReadFileToString(job.trace_path);
    if (s.ok() && trace.ok()) s = WriteStringToFile(JoinPath(job.spec.output(), "_trace.jsonl"), *trace);
    Status rm = RemoveAll(JoinPath(job.spec.output(), "_temporary"));
    if (!s.ok() || !rm.ok()) MR_LOG_WARN("{}: finishing output: {} {}", JobIdString(job.id), s.ToString(), rm.ToString());
    MR_LOG_INFO("{} succeeded in {:.3f}s", JobIdString(job.id), job.end_time - job.submit_time);
  } else {
    // No partial output: the job created the directory (Submit refuses an existing one),
    // so it removes all of it.
    Status rm = RemoveAll(job.spec.output());
    if (!rm.ok()) MR_LOG_WARN("{}: removing output: {}", JobIdString(job.id), rm.ToString());
    MR_LOG_WARN("{} {}: {}", JobIdString(job.id), state == JobState::kKilled ? "killed" : "failed", error);
  }
  if (!flushed.ok()) MR_LOG_WARN("trace: {}", flushed.ToString());
  PersistJob(job, /*sync=*/true);
  if (state == JobState::kSucceeded) UpdateProfile(job);
  if (on_job_end_) on_job_end_(job.id);
}

Result<proto::JobStatus> JobTracker::Kill(uint64_t job_id) {
  JobRecord* job = FindJob(job_id);
  if (job == nullptr) return Status::NotFound("no job " + JobIdString(job_id));
  if (job->finished()) {
    return Status::FailedPrecondition(JobIdString(job_id) + " has already ended (" + JobStateName(job->state) +
                                      "): nothing to kill");
  }
  FinishJob(*job, JobState::kKilled, kKilledByUser);
  return MakeStatus(*job);
}

void JobTracker::TraceEstimate(JobRecord& job) {
  sched::SizeEstimate e = job.Estimate(clock_->Now());
  if (e.source == sched::EstimateSource::kNone) return;
  Trace(job, {{"event", "estimate"}, {"t", clock_->Now()}, {"source", sched::EstimateSourceName(e.source)},
              {"map_seconds", e.map_seconds_total}, {"map_seconds_remaining", e.map_seconds_remaining},
              {"shuffle_bytes", e.shuffle_bytes_total}, {"shuffle_bytes_remaining", e.shuffle_bytes_remaining}});
  job.traced_source = e.source;
}

// Folds this run into the job name's profile (running mean over runs).
void JobTracker::UpdateProfile(const JobRecord& job) {
  if (!store_ || job.maps_done == 0) return;
  proto::JobProfile p = job.profile.value_or(proto::JobProfile());
  double w = 1.0 / (p.runs() + 1);
  auto mix = [w](double old, double now) { return old * (1 - w) + now * w; };
  p.set_map_seconds_per_task(mix(p.map_seconds_per_task(), job.map_seconds_done / job.maps_done));
  if (job.map_input_bytes > 0) {
    p.set_output_per_input_byte(mix(p.output_per_input_byte(), static_cast<double>(job.map_output_bytes) /
                                                                   static_cast<double>(job.map_input_bytes)));
  }
  p.set_output_bytes_per_task(mix(p.output_bytes_per_task(), static_cast<double>(job.map_output_bytes) / job.maps_done));
  p.set_runs(p.runs() + 1);
  Status s = store_->PutProfile(job.spec.name(), p);
  if (!s.ok()) MR_LOG_WARN("{}", s.ToString());
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

}  // namespace mr::master
