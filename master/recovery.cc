#include "master/recovery.h"

#include <algorithm>
#include <set>
#include <vector>

#include "common/log.h"
#include "master/job_trace.h"
#include "master/task_assignment.h"

namespace mr::master {

using sched::TaskKind;

namespace {
sched::EstimateSource ParseEstimateSource(const std::string& name) {
  for (auto src : {sched::EstimateSource::kHint, sched::EstimateSource::kProfile, sched::EstimateSource::kOnline}) {
    if (name == sched::EstimateSourceName(src)) return src;
  }
  return sched::EstimateSource::kNone;
}

// A finished job as it was at its end (PersistJob), so its status survives a restart.
void RestoreTotals(const proto::StoredJob& s, JobRecord& rec) {
  const proto::JobTotals& t = s.totals();
  rec.maps_done = static_cast<int>(std::min<size_t>(t.maps_done(), s.num_maps()));
  rec.map_input_bytes = t.map_input_bytes();
  rec.map_output_bytes = t.map_output_bytes();
  rec.shuffle_bytes_fetched = t.shuffle_bytes_fetched();
  rec.map_seconds_done = t.map_seconds_done();
  rec.reduce_seconds_done = t.reduce_seconds_done();
  rec.shuffle_first_start = t.shuffle_first_start();
  rec.shuffle_last_end = t.shuffle_last_end();
  rec.fetch_bytes = t.fetch_bytes();
  rec.maps_done_time = t.maps_done_time();
  if (s.has_totals()) {
    sched::SizeEstimate e;
    e.source = ParseEstimateSource(t.estimate_source());
    e.map_seconds_total = t.est_map_seconds();
    e.shuffle_bytes_total = t.est_shuffle_bytes();
    e.reduce_source = ParseEstimateSource(t.reduce_estimate_source());
    e.reduce_seconds_total = t.est_reduce_seconds();
    rec.final_estimate = e;
  }
  if (t.has_progress()) {
    const proto::FrozenProgress& f = t.progress();
    rec.final_progress = PhaseProgress{f.input_bytes(), f.input_bytes_read(), f.shuffle_bytes_expected(),
                                       f.reduce_bytes_merged(), f.map(), f.shuffle(), f.reduce()};
  }
}

// The job as stored, before its tasks' records are applied.
std::unique_ptr<JobRecord> RestoreJob(const proto::StoredJob& s, const std::string& policy, TraceQueue* trace_queue) {
  auto rec = std::make_unique<JobRecord>();
  rec->id = s.job_id();
  rec->spec = s.spec();
  rec->state = ParseJobState(s.state()).value_or(JobState::kRunning);
  rec->error = s.error();
  rec->submit_time = s.submit_time();
  rec->start_time = s.start_time();
  rec->end_time = s.end_time();
  if (s.has_last_failed_attempt()) rec->last_failed_attempt = s.last_failed_attempt();
  // A finished job's counters are final. A resumed job re-runs its maps, so none of
  // theirs carry over; those of reduces committed before the restart come back from
  // their task records (docs/reliability.md).
  if (rec->state != JobState::kRunning) {
    for (const auto& c : s.counters()) rec->counters[c.name()] = c.value();
    RestoreTotals(s, *rec);
  }
  // A resumed job runs on under this master's policy; records from before policies
  // were stored have none.
  rec->policy = rec->finished() && !s.policy().empty() ? s.policy() : policy;
  rec->trace_path = s.trace_path();
  rec->trace = std::make_unique<TraceWriter>(rec->trace_path, trace_queue);
  rec->maps.resize(s.num_maps());
  for (int i = 0; i < s.splits_size() && i < static_cast<int>(rec->maps.size()); ++i) {
    const auto& sp = s.splits(i);
    rec->maps[i].split = SplitFromProto(sp);
    rec->input_bytes += sp.length();
  }
  return rec;
}
}  // namespace

Status Recovery::Recover() {
  StateStore* store = persistence_.store();
  if (store == nullptr) return Status::Ok();
  MR_ASSIGN_OR_RETURN(proto::StoreMeta meta, store->GetMeta());
  state_.next_job_id = meta.next_job_id();
  state_.next_worker_id = meta.next_worker_id();
  MR_ASSIGN_OR_RETURN(std::vector<LoadedJob> loaded, store->LoadJobs());
  double now = state_.Now();
  int resumed = 0;
  for (auto& lj : loaded) {
    std::unique_ptr<JobRecord> rec = RestoreJob(lj.job, state_.policy, state_.options.trace_queue.get());
    if (auto profile = store->GetProfile(rec->spec.name()); profile.ok()) rec->profile = *profile;
    for (size_t i = 0; i < rec->maps.size(); ++i) rec->maps[i].next_attempt = std::max(1u, lj.maps[i].next_attempt());
    rec->reduces.resize(rec->spec.reducers());
    for (size_t i = 0; i < rec->reduces.size(); ++i) {
      ReduceTask& t = rec->reduces[i];
      t.next_attempt = std::max(1u, lj.reduces[i].next_attempt());
      if (lj.reduces[i].committed()) {
        t.state = ReduceTask::State::kDone;
        rec->reduces_done++;
        // Maps of a resumed job run again and count afresh; committed reduces do not. A
        // finished job's stored counters already hold them (adding them again doubled
        // its reduce.* counters after every restart).
        if (!rec->finished()) rec->AddCounters(lj.reduces[i].counters(), +1);
      }
    }
    state_.next_job_id = std::max(state_.next_job_id, rec->id + 1);
    JobRecord& j = *rec;
    state_.jobs[rec->id] = std::move(rec);
    if (j.finished()) continue;
    resumed++;
    j.allocation_after_restart = true;
    // Maps done before the restart wait (as running, no slot) for the worker that served
    // their output to register again and offer it; those not offered in time run again.
    // Not once every reduce has committed: nobody needs their output then.
    int awaiting = 0;
    if (j.reduces.empty()) {
      // A map-only job's done maps committed their part files: they stay done.
      for (size_t i = 0; i < j.maps.size(); ++i) {
        if (lj.maps[i].has_map_done()) lifecycle_.CompleteMap(j, j.maps[i], lj.maps[i].map_done(), lj.maps[i].counters());
      }
    } else if (j.reduces_done < static_cast<int>(j.reduces.size())) {
      for (size_t i = 0; i < j.maps.size(); ++i) {
        if (!lj.maps[i].has_map_done()) continue;
        MapTask& m = j.maps[i];
        m.state = MapTask::State::kRunning;
        m.worker = 0;
        m.attempt = lj.maps[i].map_done().attempt();
        m.awaiting = lj.maps[i];
        j.maps_running++;
        awaiting++;
      }
    }
    if (awaiting > 0) state_.map_recovery_deadline = now + state_.options.worker_timeout;
    Trace(j, trace::MasterRestart{.t = now, .reduces_committed = j.reduces_done, .maps_awaiting = awaiting});
    const bool all_done = j.reduces.empty() ? j.maps_done == static_cast<int>(j.maps.size())
                                            : j.reduces_done == static_cast<int>(j.reduces.size());
    if (all_done) lifecycle_.FinishJob(j, JobState::kSucceeded, "");
  }
  lifecycle_.EnforceRetention();
  FlushTraces(state_);
  MR_LOG_INFO("recovered {} jobs from the state store ({} resumed)", loaded.size(), resumed);
  return Status::Ok();
}

// A worker registering again offers the map outputs it still serves. A running job's map
// that awaits exactly that attempt on exactly that shuffle server is done again, with the
// sizes and counters stored at its first completion; nothing else is taken on trust. Held
// outputs of jobs that are no longer running are the worker's to delete, and so are those
// of running jobs that are not adopted (superseded attempts).
void Recovery::AdoptHeldOutputs(WorkerId id, const proto::RegisterWorker& req, proto::RegisterReply* reply) {
  std::set<uint64_t> drop;
  std::set<uint64_t> adopted_in;
  for (const auto& h : req.held_outputs()) {
    JobRecord* job = state_.FindJob(h.job_id());
    if (job == nullptr || job->finished()) {
      drop.insert(h.job_id());
      continue;
    }
    MapTask* m = h.map() < job->maps.size() ? &job->maps[h.map()] : nullptr;
    const proto::MapDone* offered = m != nullptr && m->awaiting && m->state == MapTask::State::kRunning
                                        ? &m->awaiting->map_done()
                                        : nullptr;
    if (offered == nullptr || offered->attempt() != h.attempt() || offered->host() != req.host() ||
        offered->shuffle_port() != req.shuffle_port()) {
      *reply->add_delete_outputs() = h;  // not the attempt that counts: superseded
      continue;
    }
    AdoptHeldOutput(id, *job, h);
    adopted_in.insert(job->id);
  }
  for (uint64_t jid : adopted_in) {
    JobRecord& job = *state_.FindJob(jid);
    TraceEstimate(job, state_.Now());
    placer_.QueueLocations(job);
  }
  for (uint64_t j : drop) reply->add_drop_jobs(j);
}

void Recovery::AdoptHeldOutput(WorkerId id, JobRecord& job, const proto::HeldMapOutput& h) {
  MapTask& m = job.maps[h.map()];
  const proto::StoredTask stored = std::move(*m.awaiting);
  m.awaiting.reset();
  job.maps_running--;
  m.worker = id;
  lifecycle_.CompleteMap(job, m, stored.map_done(), stored.counters());
  Trace(job, trace::MapRecovered{.t = state_.Now(),
                                 .task = TaskIdString(TaskKind::kMap, static_cast<int>(h.map())),
                                 .attempt = h.attempt(),
                                 .worker = id,
                                 .bytes_out = stored.map_done().bytes_out()});
}

void Recovery::ExpireMapRecovery() {
  if (state_.map_recovery_deadline <= 0 || state_.Now() < state_.map_recovery_deadline) return;
  state_.map_recovery_deadline = 0;
  for (auto& [jid, job] : state_.jobs) {  // finished ones too: they must not show maps running
    int expired = 0;
    for (MapTask& m : job->maps) {
      if (!m.awaiting) continue;
      m.awaiting.reset();
      m.state = MapTask::State::kPending;
      m.worker = 0;
      job->maps_running--;
      expired++;
    }
    if (expired > 0 && !job->finished()) {
      MR_LOG_INFO("{}: {} done maps were not offered again; running them again", JobIdString(jid), expired);
    }
  }
}

}  // namespace mr::master
