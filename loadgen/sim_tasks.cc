#include "loadgen/sim_tasks.h"

#include <algorithm>
#include <cstdlib>

#include "common/file_util.h"
#include "common/units.h"

namespace mr::loadgen {

namespace {

void AddCounter(proto::TaskReport* r, const std::string& name, uint64_t value) {
  proto::Counter* c = r->add_counters();
  c->set_name(name);
  c->set_value(static_cast<int64_t>(value));
}

// A synthetic job's own task times and output size (its spec's map_seconds, reduce_seconds,
// map_bytes), so that a simulated task lasts what the job asks; the worker's defaults for
// any other job or a value that is not a plain number.
double SpecSeconds(const proto::JobSpec& spec, const char* key, double fallback) {
  auto it = spec.params().find(key);
  if (spec.job() != "synthetic" || it == spec.params().end()) return fallback;
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  return end != nullptr && *end == '\0' && v >= 0 && v < 1e6 ? v : fallback;
}

uint64_t SpecBytes(const proto::JobSpec& spec, uint64_t fallback) {
  auto it = spec.params().find("map_bytes");
  if (spec.job() != "synthetic" || it == spec.params().end()) return fallback;
  Result<uint64_t> v = ParseBytes(it->second);
  return v.ok() ? *v : fallback;
}

std::string Parent(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

}  // namespace

uint32_t SimTasks::Busy(bool reduce, bool unified) const {
  uint32_t n = 0;
  for (const auto& [key, t] : running_) {
    if (t.unified == unified && (unified || (t.kind == proto::REDUCE) == reduce)) n++;
  }
  return n;
}

void SimTasks::Start(const proto::Assignment& a, double now) {
  if (dropped_.count(a.job_id()) > 0) return;
  if (a.kind() == proto::REDUCE && a.place_only()) {
    Reducer& r = reducers_[{a.job_id(), a.index()}];
    r.num_maps = a.num_maps();
    r.reducers = std::max(1u, a.spec().reducers());
    counts_.reduces_placed++;
    r.changed = true;  // a first FETCHING report, as the fetch scheduler sends
    auto known = locations_.find(a.job_id());
    if (known != locations_.end()) {
      for (const auto& [map, loc] : known->second) Fetch(a.job_id(), a.index(), r, loc, now);
    }
    return;
  }
  Running t;
  t.kind = a.kind();
  t.unified = a.unified_slot();
  t.start = now;
  t.last_progress = now;
  t.reducers = std::max(1u, a.spec().reducers());
  if (a.kind() == proto::MAP) {
    t.end = now + SpecSeconds(a.spec(), "map_seconds", options_.map_seconds);
    t.bytes_in = a.split().length();
    t.map_bytes = SpecBytes(a.spec(), options_.map_bytes);
    counts_.maps_started++;
  } else {
    t.end = now + SpecSeconds(a.spec(), "reduce_seconds", options_.reduce_seconds);
    t.temp_output = a.temp_output();
    auto it = reducers_.find({a.job_id(), a.index()});
    t.bytes_in = it == reducers_.end() ? 0 : it->second.bytes;
    counts_.reduces_started++;
  }
  running_[Key{a.job_id(), a.kind(), a.index(), a.attempt()}] = std::move(t);
}

void SimTasks::Fetch(uint64_t job, uint32_t reduce, Reducer& r, const proto::MapOutputLocation& loc, double now) {
  if (!r.fetched.insert(loc.map_index()).second) return;
  const uint64_t bytes = loc.partition_bytes() / r.reducers;
  r.bytes += bytes;
  r.changed = true;
  counts_.fetches++;
  proto::FetchEvent e;
  e.set_job_id(job);
  e.set_reduce_index(reduce);
  e.set_map_index(loc.map_index());
  e.set_map_attempt(loc.attempt());
  e.set_src_worker(loc.worker_id());
  e.set_start_time(now);
  e.set_end_time(now);
  e.set_bytes(bytes);
  e.set_ok(true);
  fetch_events_.push_back(std::move(e));
}

bool SimTasks::Apply(const proto::HeartbeatReply& reply, double now) {
  for (uint64_t job : reply.finished_jobs()) DropJob(job);
  for (const auto& a : reply.assignments()) Start(a, now);
  for (const auto& k : reply.kills()) {
    auto it = running_.find(Key{k.job_id(), k.kind(), k.index(), k.attempt()});
    if (it == running_.end()) continue;
    proto::TaskReport r = FinalReport(it->first, it->second, now);
    r.set_state(proto::KILLED);
    r.set_error("killed by the master");
    outbox_.push_back(std::move(r));
    counts_.killed++;
    running_.erase(it);
  }
  bool urgent = false;
  for (const auto& loc : reply.map_outputs()) {
    if (dropped_.count(loc.job_id()) > 0) continue;
    locations_[loc.job_id()][loc.map_index()] = loc;
    for (auto it = reducers_.lower_bound({loc.job_id(), 0}); it != reducers_.end() && it->first.first == loc.job_id();
         ++it) {
      const bool was_ready = Ready(it->second);
      Fetch(loc.job_id(), it->first.second, it->second, loc, now);
      urgent = urgent || (!was_ready && Ready(it->second));
    }
  }
  for (const auto& d : reply.delete_outputs()) held_.erase({d.job_id(), d.map(), d.attempt()});
  return urgent;
}

void SimTasks::ApplyRegistration(const proto::RegisterReply& reply) {
  for (uint64_t job : reply.drop_jobs()) DropJob(job);
  for (const auto& d : reply.delete_outputs()) held_.erase({d.job_id(), d.map(), d.attempt()});
}

proto::TaskReport SimTasks::FinalReport(const Key& key, const Running& t, double now) {
  proto::TaskReport r;
  r.set_job_id(std::get<0>(key));
  r.set_kind(static_cast<proto::TaskKind>(std::get<1>(key)));
  r.set_index(std::get<2>(key));
  r.set_attempt(std::get<3>(key));
  r.set_start_time(t.start);
  r.set_end_time(now);
  return r;
}

bool SimTasks::Finish(double now) {
  bool any = false;
  for (auto it = running_.begin(); it != running_.end();) {
    const Running& t = it->second;
    if (t.end > now) {
      ++it;
      continue;
    }
    proto::TaskReport r = FinalReport(it->first, t, t.end);
    r.set_state(proto::SUCCEEDED);
    const char* phase = t.kind == proto::MAP ? "map" : "reduce";
    const uint64_t bytes_out = t.kind == proto::MAP ? t.map_bytes : 0;
    r.set_bytes_in(t.bytes_in);
    r.set_records_in(t.bytes_in / 100);
    r.set_bytes_out(bytes_out);
    r.set_records_out(bytes_out / 100);
    AddCounter(&r, std::string(phase) + ".records_in", t.bytes_in / 100);
    AddCounter(&r, std::string(phase) + ".records_out", bytes_out / 100);
    AddCounter(&r, std::string(phase) + ".bytes_in", t.bytes_in);
    AddCounter(&r, std::string(phase) + ".bytes_out", bytes_out);
    if (t.kind == proto::MAP) {
      AddCounter(&r, "map.spills", 1);
      for (uint32_t i = 0; i < t.reducers; ++i) r.add_partition_bytes(t.map_bytes / t.reducers);
      held_.insert({std::get<0>(it->first), std::get<2>(it->first), std::get<3>(it->first)});
      counts_.maps_succeeded++;
    } else {
      // The reduce's output: an empty part file where the master will rename it from.
      Status s = MakeDirs(Parent(t.temp_output));
      if (s.ok()) s = WriteStringToFile(t.temp_output, "");
      if (s.ok()) {
        counts_.reduces_succeeded++;
      } else {
        r.set_state(proto::FAILED);
        r.set_error("loadgen: cannot write " + t.temp_output + ": " + s.message());
        counts_.reduces_failed++;
      }
    }
    outbox_.push_back(std::move(r));
    it = running_.erase(it);
    any = true;
  }
  return any;
}

double SimTasks::NextEnd() const {
  double next = std::numeric_limits<double>::infinity();
  for (const auto& [key, t] : running_) next = std::min(next, t.end);
  return next;
}

void SimTasks::Fill(proto::Heartbeat* hb, double now) {
  auto free = [](uint32_t slots, uint32_t busy) { return slots > busy ? slots - busy : 0; };
  hb->set_free_map_slots(free(options_.map_slots, Busy(false, false)));
  hb->set_free_reduce_slots(free(options_.reduce_slots, Busy(true, false)));
  hb->set_free_unified_slots(free(options_.unified_slots, Busy(false, true)));
  for (auto& r : outbox_) *hb->add_reports() = std::move(r);
  outbox_.clear();
  for (auto& [key, t] : running_) {
    if (now - t.last_progress < options_.progress_interval) continue;
    t.last_progress = now;
    proto::TaskReport r = FinalReport(key, t, 0);
    r.clear_end_time();
    r.set_state(proto::RUNNING);
    r.set_progress(std::clamp((now - t.start) / std::max(1e-9, t.end - t.start), 0.0, 1.0));
    *hb->add_reports() = std::move(r);
  }
  for (auto& [id, r] : reducers_) {
    if (!r.changed) continue;
    r.changed = false;
    proto::TaskReport* p = hb->add_reports();
    p->set_job_id(id.first);
    p->set_kind(proto::REDUCE);
    p->set_index(id.second);
    p->set_maps_fetched(static_cast<uint32_t>(r.fetched.size()));
    p->set_shuffle_bytes(r.bytes);
    p->set_state(Ready(r) ? proto::READY : proto::FETCHING);
  }
  for (auto& e : fetch_events_) *hb->add_fetches() = std::move(e);
  fetch_events_.clear();
}

void SimTasks::DropJob(uint64_t job) {
  dropped_.insert(job);
  std::erase_if(running_, [job](const auto& e) { return std::get<0>(e.first) == job; });
  std::erase_if(reducers_, [job](const auto& e) { return e.first.first == job; });
  std::erase_if(held_, [job](const auto& h) { return std::get<0>(h) == job; });
  std::erase_if(outbox_, [job](const proto::TaskReport& r) { return r.job_id() == job; });
  std::erase_if(fetch_events_, [job](const proto::FetchEvent& e) { return e.job_id() == job; });
  locations_.erase(job);
}

std::vector<proto::HeldMapOutput> SimTasks::Void() {
  running_.clear();
  reducers_.clear();
  locations_.clear();
  outbox_.clear();
  fetch_events_.clear();
  std::vector<proto::HeldMapOutput> held;
  for (const auto& [job, map, attempt] : held_) {
    proto::HeldMapOutput& h = held.emplace_back();
    h.set_job_id(job);
    h.set_map(map);
    h.set_attempt(attempt);
  }
  return held;
}

}  // namespace mr::loadgen
