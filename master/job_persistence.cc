#include "master/job_persistence.h"

#include "common/log.h"
#include "master/task_assignment.h"

namespace mr::master {

void JobPersistence::PersistJob(const JobRecord& job, bool sync) {
  if (!store_) return;
  proto::StoredJob s;
  s.set_job_id(job.id);
  *s.mutable_spec() = job.spec;
  s.set_num_maps(static_cast<uint32_t>(job.maps.size()));
  for (const auto& m : job.maps) {
    if (!m.split.path.empty()) SplitToProto(m.split, s.add_splits());
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
  if (job.last_failed_attempt) *s.mutable_last_failed_attempt() = *job.last_failed_attempt;
  if (job.finished()) {
    proto::JobTotals* t = s.mutable_totals();
    t->set_maps_done(static_cast<uint32_t>(job.maps_done));
    t->set_map_input_bytes(job.map_input_bytes);
    t->set_map_output_bytes(job.map_output_bytes);
    t->set_shuffle_bytes_fetched(job.shuffle_bytes_fetched);
    t->set_map_seconds_done(job.map_seconds_done);
    t->set_reduce_seconds_done(job.reduce_seconds_done);
    if (job.final_estimate) {
      t->set_estimate_source(sched::EstimateSourceName(job.final_estimate->source));
      t->set_est_map_seconds(job.final_estimate->map_seconds_total);
      t->set_est_shuffle_bytes(job.final_estimate->shuffle_bytes_total);
      t->set_reduce_estimate_source(sched::EstimateSourceName(job.final_estimate->reduce_source));
      t->set_est_reduce_seconds(job.final_estimate->reduce_seconds_total);
    }
    t->set_shuffle_first_start(job.shuffle_first_start);
    t->set_shuffle_last_end(job.shuffle_last_end);
    t->set_fetch_bytes(job.fetch_bytes);
    t->set_maps_done_time(job.maps_done_time);
    if (job.final_progress) {
      const PhaseProgress& p = *job.final_progress;
      proto::FrozenProgress* f = t->mutable_progress();
      f->set_input_bytes(p.input_bytes);
      f->set_input_bytes_read(p.input_bytes_read);
      f->set_shuffle_bytes_expected(p.shuffle_bytes_expected);
      f->set_reduce_bytes_merged(p.reduce_bytes_merged);
      f->set_map(p.map);
      f->set_shuffle(p.shuffle);
      f->set_reduce(p.reduce);
    }
  }
  Status st = store_->PutJob(s, sync);
  if (!st.ok()) MR_LOG_ERROR("{}", st.ToString());
}

Status JobPersistence::PersistIdCounters(bool sync) {
  if (!store_) return Status::Ok();
  proto::StoreMeta meta;
  meta.set_next_job_id(state_.next_job_id);
  meta.set_next_worker_id(state_.next_worker_id);
  return store_->PutMeta(meta, sync);
}

void JobPersistence::PersistTask(const JobRecord& job, bool reduce, int index, bool committed, bool sync,
                                 const google::protobuf::RepeatedPtrField<proto::Counter>* counters) {
  if (!store_) return;
  proto::StoredTask t;
  t.set_next_attempt(reduce ? job.reduces[index].next_attempt : job.maps[index].next_attempt);
  t.set_committed(committed);
  if (counters != nullptr) *t.mutable_counters() = *counters;
  Status st = store_->PutTask(job.id, reduce, static_cast<uint32_t>(index), t, sync);
  if (!st.ok()) MR_LOG_ERROR("{}", st.ToString());
}

void JobPersistence::PersistMapDone(const JobRecord& job, int index, const proto::MapDone& done) {
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

std::optional<proto::JobProfile> JobPersistence::LoadProfile(const std::string& name) const {
  if (!store_) return std::nullopt;
  auto profile = store_->GetProfile(name);
  if (!profile.ok()) return std::nullopt;
  return *profile;
}

void JobPersistence::UpdateProfile(const JobRecord& job) {
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
  if (job.reduces_measured > 0) {  // its own weights: older profiles have no reduce runs
    double wr = 1.0 / (p.reduce_runs() + 1);
    p.set_reduce_seconds_per_task(p.reduce_seconds_per_task() * (1 - wr) +
                                  job.reduce_seconds_done / job.reduces_measured * wr);
    p.set_reduce_runs(p.reduce_runs() + 1);
  }
  Status s = store_->PutProfile(job.spec.name(), p);
  if (!s.ok()) MR_LOG_WARN("{}", s.ToString());
}

void JobPersistence::StoreAriaProfile(const JobRecord& job, const std::string& profile_json) {
  if (!store_) return;
  Status s = store_->PutAriaProfile(job.spec.name(), job.id, profile_json, kAriaProfileRuns);
  if (!s.ok()) MR_LOG_WARN("{}", s.ToString());
}

void JobPersistence::DeleteJob(uint64_t id) {
  if (!store_) return;
  Status s = store_->DeleteJob(id);
  if (!s.ok()) MR_LOG_WARN("{}", s.ToString());
}

}  // namespace mr::master
