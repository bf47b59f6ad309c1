// JobTracker: recovery from faults — lost workers, unfetchable map outputs,
// and a master restart from the StateStore.
#include <algorithm>
#include <set>

#include "common/file_util.h"
#include "common/log.h"
#include "master/job_tracker.h"

namespace mr::master {

using nlohmann::json;
using sched::TaskKind;

void JobTracker::Tick() {
  double now = clock_->Now();
  std::vector<WorkerId> lost;
  for (const auto& [id, w] : workers_) {
    if (now - w.last_heartbeat > options_.worker_timeout) lost.push_back(id);
  }
  for (WorkerId id : lost) LoseWorker(id, "no heartbeat for " + std::to_string(options_.worker_timeout) + "s");
  ExpireMapRecovery();
  EnforceRetention();
  FlushTraces();
}

// Finished jobs stay browsable (status, page, trace) until more than
// history_jobs have finished or, with history_max_age, until they ended that long
// ago; then they go, oldest first, with their store records and traces. Their
// outputs are the user's and are never touched (Hadoop's JobHistory retention:
// mapreduce.jobhistory.joblist.cache.size and max-age-ms).
void JobTracker::EnforceRetention() {
  size_t finished = 0;
  for (const auto& [id, job] : jobs_) finished += job->finished();
  const double expired_before =
      options_.history_max_age > 0 ? clock_->Now() - options_.history_max_age : -1.0;
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    const JobRecord& job = *it->second;
    if (!job.finished() || (finished <= options_.history_jobs && job.end_time >= expired_before)) {
      ++it;
      continue;
    }
    if (store_) {
      Status s = store_->DeleteJob(it->first);
      if (!s.ok()) MR_LOG_WARN("{}", s.ToString());
    }
    (void)RemoveAll(job.trace_path);
    it = jobs_.erase(it);
    finished--;
  }
}

// A worker registering again offers the map outputs it still serves. A running job's map
// that awaits exactly that attempt on exactly that shuffle server is done again, with the
// sizes and counters stored at its first completion; nothing else is taken on trust. Held
// outputs of jobs that are no longer running are the worker's to delete, and so are those
// of running jobs that are not adopted (superseded attempts).
void JobTracker::AdoptHeldOutputs(WorkerId id, const proto::RegisterWorker& req, proto::RegisterReply* reply) {
  std::set<uint64_t> drop;
  std::set<uint64_t> adopted_in;
  for (const auto& h : req.held_outputs()) {
    JobRecord* job = FindJob(h.job_id());
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
    JobRecord& job = *FindJob(jid);
    TraceEstimate(job);
    QueueLocations(job);
  }
  for (uint64_t j : drop) reply->add_drop_jobs(j);
}

void JobTracker::AdoptHeldOutput(WorkerId id, JobRecord& job, const proto::HeldMapOutput& h) {
  MapTask& m = job.maps[h.map()];
  const proto::StoredTask stored = std::move(*m.awaiting);
  m.awaiting.reset();
  job.maps_running--;
  m.worker = id;
  CompleteMap(job, m, stored.map_done(), stored.counters());
  Trace(job, {{"event", "map_recovered"}, {"t", clock_->Now()},
              {"task", TaskIdString(TaskKind::kMap, static_cast<int>(h.map()))}, {"attempt", h.attempt()},
              {"worker", id}, {"bytes_out", stored.map_done().bytes_out()}});
}

// Done maps whose worker did not come back within worker_timeout of the restart run again.
void JobTracker::ExpireMapRecovery() {
  if (map_recovery_deadline_ <= 0 || clock_->Now() < map_recovery_deadline_) return;
  map_recovery_deadline_ = 0;
  for (auto& [jid, job] : jobs_) {  // finished ones too: they must not show maps running
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

void JobTracker::LoseWorker(WorkerId id, const std::string& why) {
  if (workers_.erase(id) == 0) return;
  MR_LOG_WARN("worker {} lost: {}", id, why);
  double now = clock_->Now();
  for (auto& [jid, job] : jobs_) {
    if (job->finished()) continue;
    Trace(*job, {{"event", "worker_lost"}, {"t", now}, {"worker", id}, {"reason", why}});
    for (size_t i = 0; i < job->maps.size(); ++i) {
      MapTask& m = job->maps[i];
      if (m.state != MapTask::State::kRunning || m.worker != id) continue;
      m.state = MapTask::State::kPending;
      job->maps_running--;
      job->counters[kKilledMapsCounter]++;
      Trace(*job, {{"event", "attempt_end"}, {"t", now}, {"task", TaskIdString(TaskKind::kMap, static_cast<int>(i))},
                   {"attempt", m.attempt}, {"worker", id}, {"start", m.start_time}, {"status", "lost"}});
    }
    for (size_t i = 0; i < job->reduces.size(); ++i) {
      ReduceTask& t = job->reduces[i];
      if (t.worker != id || t.state == ReduceTask::State::kUnplaced || t.state == ReduceTask::State::kDone) continue;
      if (t.state == ReduceTask::State::kRunning) {
        job->reduces_running--;
        job->counters[kKilledReducesCounter]++;
        Trace(*job, {{"event", "attempt_end"}, {"t", now},
                     {"task", TaskIdString(TaskKind::kReduce, static_cast<int>(i))}, {"attempt", t.attempt},
                     {"worker", id}, {"status", "lost"}});
      }
      ResetReduce(*job, static_cast<int>(i));
    }
    job->locations_sent.erase(id);
    // Completed map outputs on the lost worker are re-run if some reducer has
    // not fetched them yet (Hadoop's rule; we do not track which reducer has).
    bool needed = std::any_of(job->reduces.begin(), job->reduces.end(), [](const ReduceTask& t) {
      return t.state == ReduceTask::State::kUnplaced || t.state == ReduceTask::State::kFetching;
    });
    for (size_t i = 0; needed && i < job->maps.size(); ++i) {
      if (job->maps[i].state == MapTask::State::kDone && job->maps[i].worker == id) {
        ReexecuteMap(*job, static_cast<int>(i), "worker " + std::to_string(id) + " lost");
      }
    }
  }
  for (auto& [jid, job] : jobs_) PlaceReduces(*job);
}

void JobTracker::ReexecuteMap(JobRecord& job, int index, const std::string& why) {
  MapTask& m = job.maps[index];
  if (m.state != MapTask::State::kDone) return;
  m.state = MapTask::State::kPending;
  job.maps_done--;
  job.map_seconds_done = std::max(0.0, job.map_seconds_done - std::max(0.0, m.end_time - m.start_time));
  job.map_output_bytes -= std::min(job.map_output_bytes, m.bytes_out);
  job.map_input_bytes -= std::min(job.map_input_bytes, m.bytes_in);
  // The done attempt is superseded: only the one that replaces it may count, and its
  // output goes now (not with the job) if its worker is still registered.
  job.AddCounters(m.counters, -1);
  m.counters.Clear();
  m.unreachable_reports.clear();
  DeleteOutput(m.worker, job.id, static_cast<uint32_t>(index), m.attempt);
  PersistTask(job, false, index, false, false);  // its output is no longer one to adopt
  job.counters[kKilledMapsCounter]++;
  for (auto& [wid, sent] : job.locations_sent) sent[index] = false;
  Trace(job, {{"event", "reexecute"}, {"t", clock_->Now()}, {"task", TaskIdString(TaskKind::kMap, index)},
              {"attempt", m.attempt}, {"reason", why}});
  MR_LOG_INFO("{} {}: re-executing ({})", JobIdString(job.id), TaskIdString(TaskKind::kMap, index), why);
}

void JobTracker::ResetReduce(JobRecord& job, int index) {
  ReduceTask& t = job.reduces[index];
  job.shuffle_bytes_fetched -= std::min(job.shuffle_bytes_fetched, t.shuffle_bytes);
  t.state = ReduceTask::State::kUnplaced;
  t.maps_fetched = 0;
  t.shuffle_bytes = 0;
}

void JobTracker::PersistJob(const JobRecord& job, bool sync) {
  if (!store_) return;
  proto::StoredJob s;
  s.set_job_id(job.id);
  *s.mutable_spec() = job.spec;
  s.set_num_maps(static_cast<uint32_t>(job.maps.size()));
  for (const auto& m : job.maps) {
    if (m.split.path.empty()) continue;
    auto* sp = s.add_splits();
    sp->set_path(m.split.path);
    sp->set_file_index(m.split.file_index);
    sp->set_offset(m.split.offset);
    sp->set_length(m.split.length);
  }
  s.set_state(JobStateName(job.state));
  s.set_error(job.error);
  s.set_submit_time(job.submit_time);
  s.set_start_time(job.start_time);
  s.set_end_time(job.end_time);
  for (const auto& [name, v] : job.counters) {
    auto* c = s.add_counters();
    c->set_name(name);
    c->set_value(v);
  }
  s.set_trace_path(job.trace_path);
  s.set_policy(job.policy);
  if (job.finished()) {
    proto::JobTotals* t = s.mutable_totals();
    t->set_maps_done(static_cast<uint32_t>(job.maps_done));
    t->set_map_input_bytes(job.map_input_bytes);
    t->set_map_output_bytes(job.map_output_bytes);
    t->set_shuffle_bytes_fetched(job.shuffle_bytes_fetched);
    t->set_map_seconds_done(job.map_seconds_done);
    if (job.final_estimate) {
      t->set_estimate_source(sched::EstimateSourceName(job.final_estimate->source));
      t->set_est_map_seconds(job.final_estimate->map_seconds_total);
      t->set_est_shuffle_bytes(job.final_estimate->shuffle_bytes_total);
    }
    t->set_shuffle_first_start(job.shuffle_first_start);
    t->set_shuffle_last_end(job.shuffle_last_end);
    t->set_fetch_bytes(job.fetch_bytes);
  }
  Status st = store_->PutJob(s, sync);
  if (!st.ok()) MR_LOG_ERROR("{}", st.ToString());
}

Status JobTracker::PersistIdCounters(bool sync) {
  proto::StoreMeta meta;
  meta.set_next_job_id(next_job_id_);
  meta.set_next_worker_id(next_worker_id_);
  return store_->PutMeta(meta, sync);
}

void JobTracker::PersistTask(const JobRecord& job, bool reduce, int index, bool committed, bool sync,
                             const google::protobuf::RepeatedPtrField<proto::Counter>* counters) {
  if (!store_) return;
  proto::StoredTask t;
  t.set_next_attempt(reduce ? job.reduces[index].next_attempt : job.maps[index].next_attempt);
  t.set_committed(committed);
  if (counters != nullptr) *t.mutable_counters() = *counters;
  Status st = store_->PutTask(job.id, reduce, static_cast<uint32_t>(index), t, sync);
  if (!st.ok()) MR_LOG_ERROR("{}", st.ToString());
}

void JobTracker::PersistMapDone(const JobRecord& job, int index, const proto::MapDone& done) {
  if (!store_) return;
  const MapTask& m = job.maps[index];
  proto::StoredTask t;
  t.set_next_attempt(m.next_attempt);
  *t.mutable_counters() = m.counters;
  *t.mutable_map_done() = done;
  // Not synced: a record lost with the machine only means the map runs again.
  Status st = store_->PutTask(job.id, false, static_cast<uint32_t>(index), t, /*sync=*/false);
  if (!st.ok()) MR_LOG_ERROR("{}", st.ToString());
}

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
  rec.shuffle_first_start = t.shuffle_first_start();
  rec.shuffle_last_end = t.shuffle_last_end();
  rec.fetch_bytes = t.fetch_bytes();
  if (s.has_totals()) {
    sched::SizeEstimate e;
    e.source = ParseEstimateSource(t.estimate_source());
    e.map_seconds_total = t.est_map_seconds();
    e.shuffle_bytes_total = t.est_shuffle_bytes();
    rec.final_estimate = e;
  }
}
}  // namespace

Status JobTracker::Recover() {
  if (!store_) return Status::Ok();
  MR_ASSIGN_OR_RETURN(proto::StoreMeta meta, store_->GetMeta());
  next_job_id_ = meta.next_job_id();
  next_worker_id_ = meta.next_worker_id();
  MR_ASSIGN_OR_RETURN(std::vector<LoadedJob> loaded, store_->LoadJobs());
  double now = clock_->Now();
  int resumed = 0;
  for (auto& lj : loaded) {
    const proto::StoredJob& s = lj.job;
    auto rec = std::make_unique<JobRecord>();
    rec->id = s.job_id();
    rec->spec = s.spec();
    rec->state = ParseJobState(s.state()).value_or(JobState::kRunning);
    rec->error = s.error();
    rec->submit_time = s.submit_time();
    rec->start_time = s.start_time();
    rec->end_time = s.end_time();
    // A finished job's counters are final. A resumed job re-runs its maps, so none of
    // theirs carry over; those of reduces committed before the restart come back from
    // their task records below (docs/reliability.md).
    if (rec->state != JobState::kRunning) {
      for (const auto& c : s.counters()) rec->counters[c.name()] = c.value();
      RestoreTotals(s, *rec);
    }
    // A resumed job runs on under this master's policy; records from before policies
    // were stored have none.
    rec->policy = rec->finished() && !s.policy().empty() ? s.policy() : policy_;
    rec->trace_path = s.trace_path();
    rec->trace = std::make_unique<TraceWriter>(rec->trace_path);
    rec->maps.resize(s.num_maps());
    for (int i = 0; i < s.splits_size() && i < static_cast<int>(rec->maps.size()); ++i) {
      const auto& sp = s.splits(i);
      rec->maps[i].split = jobs::Split{sp.path(), sp.file_index(), sp.offset(), sp.length()};
      rec->input_bytes += sp.length();
    }
    if (auto profile = store_->GetProfile(rec->spec.name()); profile.ok()) rec->profile = *profile;
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
    next_job_id_ = std::max(next_job_id_, rec->id + 1);
    JobRecord& j = *rec;
    jobs_[rec->id] = std::move(rec);
    if (j.finished()) continue;
    resumed++;
    // Maps done before the restart wait (as running, no slot) for the worker that served
    // their output to register again and offer it; those not offered in time run again.
    // Not once every reduce has committed: nobody needs their output then.
    int awaiting = 0;
    if (j.reduces_done < static_cast<int>(j.reduces.size())) {
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
    if (awaiting > 0) map_recovery_deadline_ = now + options_.worker_timeout;
    Trace(j, {{"event", "master_restart"}, {"t", now}, {"reduces_committed", j.reduces_done},
              {"maps_awaiting", awaiting}});
    if (j.reduces_done == static_cast<int>(j.reduces.size())) FinishJob(j, JobState::kSucceeded, "");
  }
  EnforceRetention();
  FlushTraces();
  MR_LOG_INFO("recovered {} jobs from the state store ({} resumed)", loaded.size(), resumed);
  return Status::Ok();
}

}  // namespace mr::master
