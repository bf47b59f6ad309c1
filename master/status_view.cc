#include "master/status_view.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "common/file_util.h"
#include "common/job_id.h"
#include "master/status_json.h"
#include "scheduler/policy_table.h"

namespace mr::master {

using nlohmann::json;

namespace {

// A phase reads 100% only once it is done (docs/web.md, "State and phase"): running
// attempts that have consumed all their input have not committed, and may still fail.
constexpr double kBelowWhole = 0.999;

double Capped(double progress, bool done) { return done ? progress : std::min(progress, kBelowWhole); }

bool IgnoresEstimates(const std::string& policy) {
  const sched::PolicyRow* row = sched::FindPolicy(policy);
  return row != nullptr && !row->traits.uses_size_estimates;
}

}  // namespace

std::string StatusView::WorkerNameOf(WorkerId id) const {
  auto it = state_.workers.find(id);
  return it == state_.workers.end() ? std::string() : WorkerName(it->second.labels, it->second.info.host());
}

double StatusView::ClusterShuffleRate() const {
  const double now = state_.Now();
  double rate = 0;
  for (const auto& [id, job] : state_.jobs) rate += job->RecentShuffleRate(now);
  return rate;
}

proto::JobStatus StatusView::MakeStatus(const JobRecord& job) const {
  proto::JobStatus st;
  st.set_job_id(job.id);
  st.set_name(job.spec.name());
  st.set_job(job.spec.job());
  // A sealing job is not ended for its clients yet: its output and profile are being written.
  st.set_state(JobStateName(job.sealing ? JobState::kRunning : job.state));
  st.set_phase(job.sealing ? "sealing" : job.phase());
  st.set_maps_total(static_cast<uint32_t>(job.maps.size()));
  st.set_maps_done(static_cast<uint32_t>(job.maps_done));
  st.set_maps_running(static_cast<uint32_t>(job.maps_running));
  st.set_reduces_total(static_cast<uint32_t>(job.reduces.size()));
  st.set_reduces_done(static_cast<uint32_t>(job.reduces_done));
  st.set_reduces_running(static_cast<uint32_t>(job.reduces_running));
  // In tasks (the numbers speculation ranks by): the done ones (as counted, also for a
  // finished job restored without its tasks' states) plus the running ones' shares.
  double maps_progress = job.maps_done, reduces_progress = job.reduces_done;
  for (const MapTask& m : job.maps) maps_progress += m.RunningShare();
  for (const ReduceTask& t : job.reduces) reduces_progress += t.RunningShare();
  st.set_maps_progress(maps_progress);
  st.set_reduces_progress(reduces_progress);
  const PhaseProgress p = job.Progress();
  st.set_input_bytes(p.input_bytes);
  st.set_input_bytes_read(p.input_bytes_read);
  st.set_shuffle_bytes_expected(p.shuffle_bytes_expected);
  st.set_reduce_bytes_merged(p.reduce_bytes_merged);
  const bool maps_done = job.state == JobState::kSucceeded || job.maps_done == static_cast<int>(job.maps.size());
  st.set_map_progress(Capped(p.map, maps_done));
  st.set_shuffle_progress(Capped(p.shuffle, maps_done));
  st.set_reduce_progress(
      Capped(p.reduce, job.state == JobState::kSucceeded || job.reduces_done == static_cast<int>(job.reduces.size())));
  st.set_shuffle_bytes_total(job.map_output_bytes);
  st.set_shuffle_bytes_fetched(job.ShuffleBytesReceived());
  st.set_submit_time(job.submit_time);
  st.set_start_time(job.start_time);
  st.set_end_time(job.end_time);
  st.set_error(job.error);
  st.set_output(job.spec.output());
  st.set_share(job.share);
  sched::SizeEstimate e = job.final_estimate ? *job.final_estimate : job.Estimate(state_.Now());
  st.set_est_map_seconds(e.map_seconds_total);
  st.set_est_shuffle_bytes(e.shuffle_bytes_total);
  st.set_estimate_source(sched::EstimateSourceName(e.source));
  st.set_estimate_ignored(IgnoresEstimates(job.policy));
  st.set_est_reduce_seconds(e.reduce_seconds_total);
  st.set_reduce_estimate_source(sched::EstimateSourceName(e.reduce_source));
  st.set_policy(job.policy);
  st.set_queue(job.spec.queue());
  if (job.maps_done_time > 0) st.set_sojourn_time(job.maps_done_time - job.submit_time);
  st.set_trace_path(job.trace_path);
  if (job.last_failed_attempt) {
    *st.mutable_last_failed_attempt() = *job.last_failed_attempt;
    st.mutable_last_failed_attempt()->set_worker_name(WorkerNameOf(job.last_failed_attempt->worker()));
  }
  for (int pool = 0; pool < 3; ++pool) {
    if (!job.allocation[pool]) continue;
    const sched::JobAllocation& a = *job.allocation[pool];
    proto::PolicyAllocation* out = st.add_allocations();
    out->set_slot(sched::SlotKindName(a.slot));
    out->set_slots(static_cast<uint32_t>(std::max(0, a.slots)));
    out->set_min_slots(static_cast<uint32_t>(std::max(0, a.min_slots)));
    out->set_max_slots(static_cast<uint32_t>(std::max(0, a.max_slots)));
    out->set_rank(static_cast<uint32_t>(std::max(0, a.rank)));
    out->set_order(a.order);
    out->set_metric(a.metric);
    out->set_predicted(a.predicted);
    out->set_completion(a.completion);
    out->set_time(job.allocation_time[pool]);
  }
  for (size_t i = 0; i < job.maps.size(); ++i) {
    if (!job.maps[i].status_line.empty()) {
      st.add_task_status_lines(TaskIdString(sched::TaskKind::kMap, static_cast<int>(i)) + ": " + job.maps[i].status_line);
    }
  }
  for (size_t i = 0; i < job.reduces.size(); ++i) {
    if (!job.reduces[i].status_line.empty()) {
      st.add_task_status_lines(TaskIdString(sched::TaskKind::kReduce, static_cast<int>(i)) + ": " +
                               job.reduces[i].status_line);
    }
  }
  // What the policy's share applies to: the output the job's placed reducers may fetch now
  // (as the snapshot shows it to the policy, master/snapshot_builder.cc).
  if (!job.finished() && job.slow_start_reached) {
    st.set_shuffle_bytes_waiting(
        std::max(0.0, static_cast<double>(job.map_output_bytes) - static_cast<double>(job.shuffle_bytes_fetched)));
  }
  st.set_shuffle_rate(job.finished() ? 0.0 : job.RecentShuffleRate(state_.Now()));
  st.set_shuffle_rate_mean(job.MeanShuffleRate());
  for (const auto& [name, v] : job.counters) {
    auto* c = st.add_counters();
    c->set_name(name);
    c->set_value(v);
  }
  return st;
}

Result<proto::StatusReply> StatusView::GetJobStatus(uint64_t job_id) const {
  auto it = state_.jobs.find(job_id);
  if (job_id == 0 || it == state_.jobs.end()) return mr::Status::NotFound("no job " + JobIdString(job_id));
  proto::StatusReply reply;
  reply.set_workers(static_cast<uint32_t>(state_.workers.size()));
  reply.set_policy(state_.policy);
  reply.set_placement(state_.options.placement);
  *reply.add_jobs() = MakeStatus(*it->second);
  return reply;
}

Result<proto::StatusReply> StatusView::GetStatus(uint64_t job_id) const {
  proto::StatusReply reply;
  reply.set_workers(static_cast<uint32_t>(state_.workers.size()));
  reply.set_policy(state_.policy);
  reply.set_placement(state_.options.placement);
  reply.set_shuffle_rate(ClusterShuffleRate());
  const std::map<WorkerId, int> queued = QueuedMaps();
  for (const auto& [id, w] : state_.workers) {
    proto::WorkerRow* row = reply.add_worker_rows();
    row->set_id(id);
    row->set_host(w.info.host());
    row->set_name(WorkerName(w.labels, w.info.host()));
    row->set_map_slots(w.info.map_slots());
    row->set_reduce_slots(w.info.reduce_slots());
    row->set_unified_slots(w.info.unified_slots());
    row->set_running_map(static_cast<uint32_t>(w.running_map));
    row->set_running_reduce(static_cast<uint32_t>(w.running_reduce));
    row->set_running_unified(static_cast<uint32_t>(w.running_unified));
    row->set_speed(w.info.speed());
    auto it = queued.find(id);
    row->set_queued_maps(it == queued.end() ? 0 : static_cast<uint32_t>(it->second));
    row->set_map_task_rate(w.map_rate.Rate());
    for (const Label& l : w.labels) {
      proto::WorkerLabel* out = row->add_labels();
      out->set_key(l.key);
      out->set_value(l.value);
    }
  }
  if (job_id != 0) {
    auto it = state_.jobs.find(job_id);
    if (it == state_.jobs.end()) return mr::Status::NotFound("no job " + JobIdString(job_id));
    *reply.add_jobs() = MakeStatus(*it->second);
    return reply;
  }
  for (const auto& [id, job] : state_.jobs) *reply.add_jobs() = MakeStatus(*job);
  return reply;
}

std::map<WorkerId, int> StatusView::QueuedMaps() const {
  std::map<WorkerId, int> queued;
  for (const auto& [id, job] : state_.jobs) {
    if (job->finished()) continue;
    for (const MapTask& m : job->maps) {
      if (m.state == MapTask::State::kPending && m.queued_at != 0) queued[m.queued_at]++;
    }
  }
  return queued;
}

std::string StatusView::ClusterJson() const {
  json c = {{"policy", state_.policy}, {"placement", state_.options.placement}, {"workers", state_.workers.size()},
            {"heartbeats", state_.heartbeats}};
  int ms = 0, mb = 0, rs = 0, rb = 0, us = 0, ub = 0;
  double sent = 0, cap = 0;
  for (const auto& [id, w] : state_.workers) {
    ms += w.info.map_slots();
    rs += w.info.reduce_slots();
    us += w.info.unified_slots();
    mb += w.running_map;
    rb += w.running_reduce;
    ub += w.running_unified;
    sent += w.shuffle_bytes_sent;
    cap += w.info.shuffle_bandwidth();
  }
  c.update({{"map_slots", ms}, {"map_busy", mb}, {"reduce_slots", rs}, {"reduce_busy", rb}, {"unified_slots", us},
            {"unified_busy", ub}, {"shuffle_bytes_sent", sent}, {"shuffle_capacity", cap},
            {"shuffle_rate", ClusterShuffleRate()}});
  // Cumulative log histograms (common/log_histogram.h) as [bucket, count] pairs.
  auto histogram = [](const LogHistogram& h) {
    json a = json::array();
    for (const auto& [bucket, count] : h.NonZero()) a.push_back({bucket, count});
    return a;
  };
  c["timings"] = {{"heartbeat_us", histogram(state_.timings.heartbeat_us)},
                  {"round_us", histogram(state_.timings.round_us)},
                  {"round_per_free_slot_us", histogram(state_.timings.round_per_free_slot_us)}};
  if (state_.options.trace_queue) {  // the trace's writer thread (trace_queue.h): full waits are back-pressure
    TraceQueue::Stats t = state_.options.trace_queue->stats();
    c["trace_queue"] = {{"events_written", t.events_written},
                        {"writes", t.writes},
                        {"write_errors", t.write_errors},
                        {"full_waits", t.full_waits},
                        {"full_wait_seconds", t.full_wait_seconds}};
  }
  c["queues"] = json::array();
  if (queues_) {
    for (const sched::QueueUse& q : queues_()) c["queues"].push_back(QueueUseToJson(q));
  }
  return c.dump();
}

std::string StatusView::WorkersJson() const {
  json arr = json::array();
  const std::map<WorkerId, int> queued = QueuedMaps();
  for (const auto& [id, w] : state_.workers) {
    arr.push_back({{"id", id}, {"name", WorkerName(w.labels, w.info.host())}, {"host", w.info.host()},
                   {"shuffle_port", w.info.shuffle_port()},
                   {"map_slots", w.info.map_slots()}, {"reduce_slots", w.info.reduce_slots()},
                   {"unified_slots", w.info.unified_slots()}, {"running_map", w.running_map},
                   {"running_reduce", w.running_reduce}, {"running_unified", w.running_unified},
                   {"speed", w.info.speed()}, {"shuffle_bandwidth", w.info.shuffle_bandwidth()},
                   {"shuffle_bytes_sent", w.shuffle_bytes_sent}, {"last_heartbeat", w.last_heartbeat},
                   {"queued_maps", queued.contains(id) ? queued.at(id) : 0}, {"map_task_rate", w.map_rate.Rate()},
                   {"labels", LabelsToJson(w.labels)}});
    if (w.info.has_straggler()) {
      const proto::StragglerInjection& s = w.info.straggler();
      json st = {{"offset", s.offset()}, {"rate", s.rate()}, {"tail", s.tail()}, {"seed", s.seed()}};
      if (s.tail() == "pareto") st["shape"] = s.shape();
      arr.back()["straggler"] = std::move(st);
    }
  }
  return arr.dump();
}

Result<std::string> StatusView::ApiGet(std::string_view path) const {
  if (path == "/api/cluster") return ClusterJson();
  if (path == "/api/workers") return WorkersJson();
  if (path == "/api/jobs") {
    json arr = json::array();
    for (const auto& [id, job] : state_.jobs) arr.push_back(JobStatusToJson(MakeStatus(*job)));
    return arr.dump();
  }
  constexpr std::string_view kJobs = "/api/jobs/";
  if (path.rfind(kJobs, 0) != 0) return mr::Status::NotFound("no such API path");
  std::string_view rest = path.substr(kJobs.size());
  if (rest.find('/') != std::string_view::npos) return mr::Status::NotFound("no such API path");
  auto it = state_.jobs.find(ParseJobId(rest).value_or(0));
  if (it == state_.jobs.end()) return mr::Status::NotFound("no job " + std::string(rest));
  return JobStatusToJson(MakeStatus(*it->second)).dump();
}

std::optional<Result<std::string>> StatusView::ApiTracePath(std::string_view path) const {
  constexpr std::string_view kJobs = "/api/jobs/", kTrace = "/trace";
  if (path.rfind(kJobs, 0) != 0 || !path.ends_with(kTrace)) return std::nullopt;
  std::string_view id = path.substr(kJobs.size(), path.size() - kJobs.size() - kTrace.size());
  if (id.empty() || id.find('/') != std::string_view::npos) return std::nullopt;
  auto it = state_.jobs.find(ParseJobId(id).value_or(0));
  if (it == state_.jobs.end()) return Result<std::string>(mr::Status::NotFound("no job " + std::string(id)));
  return Result<std::string>(it->second->trace_path);
}

std::string TraceFileJson(const std::string& trace_path) {
  auto text = ReadFileToString(trace_path);
  json arr = json::array();
  if (text.ok()) {
    size_t pos = 0;
    while (pos < text->size()) {
      size_t nl = text->find('\n', pos);
      if (nl == std::string::npos) break;  // being written
      if (nl > pos) {
        json e = json::parse(text->substr(pos, nl - pos), nullptr, /*allow_exceptions=*/false);
        if (!e.is_discarded()) arr.push_back(std::move(e));
      }
      pos = nl + 1;
    }
  }
  return arr.dump();
}

}  // namespace mr::master
