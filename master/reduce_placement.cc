#include "master/reduce_placement.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

#include "jobs/job_spec_params.h"
#include "master/job_trace.h"
#include "master/task_assignment.h"

namespace mr::master {

using sched::TaskKind;

void ReducePlacer::PlaceReduces(JobRecord& job, WorkerId prefer) {
  if (job.finished()) return;
  if (!job.slow_start_reached) {
    const int needed = static_cast<int>(std::ceil(job.spec.slow_start() * static_cast<double>(job.maps.size())));
    if (job.maps_done < needed) return;
    job.slow_start_reached = true;
  }
  // Every reducer placed (the common case once a job is past slow start): no host scan.
  if (std::none_of(job.reduces.begin(), job.reduces.end(),
                   [](const ReduceTask& t) { return t.state == ReduceTask::State::kUnplaced; })) {
    return;
  }
  const sched::JobParams params = jobs::JobParamsFromSpec(job.spec);
  auto may_host = [&](const WorkerRecord& w) {
    return w.info.reduce_slots() + w.info.unified_slots() > 0 && policy_.MayRunOn(params, w.labels);
  };
  std::vector<WorkerRecord*> hosts;
  for (auto& [id, w] : state_.workers) {
    if (may_host(w) && !registry_.Blacklisted(job, id, TaskKindFilter::kReduce)) hosts.push_back(&w);
  }
  if (hosts.empty()) {
    for (auto& [id, w] : state_.workers) {
      if (may_host(w)) hosts.push_back(&w);
    }
  }
  if (hosts.empty()) return;  // retried when a worker registers
  std::map<WorkerId, int> load;
  for (const auto& t : job.reduces) {
    if (t.state != ReduceTask::State::kUnplaced && t.state != ReduceTask::State::kDone) load[t.worker]++;
  }
  double now = state_.Now();
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
    t.shuffle_bytes_in_flight = 0;
    job.locations_sent.try_emplace(w->id, std::vector<bool>(job.maps.size(), false));
    w->outbox_assignments.push_back(MakeReduceAssignment(job, static_cast<int>(i), /*place_only=*/true));
    Trace(job, trace::ReducePlace{.t = now,
                                  .task = TaskIdString(TaskKind::kReduce, static_cast<int>(i)),
                                  .worker = w->id,
                                  .maps_done = job.maps_done});
  }
  QueueLocations(job);
}

namespace {
proto::MapOutputLocation LocationOf(const JobRecord& job, size_t map, const WorkerRecord& src) {
  const MapTask& m = job.maps[map];
  proto::MapOutputLocation loc;
  loc.set_job_id(job.id);
  loc.set_map_index(static_cast<uint32_t>(map));
  loc.set_attempt(m.attempt);
  loc.set_host(src.info.host());
  loc.set_shuffle_port(src.info.shuffle_port());
  loc.set_worker_id(m.worker);
  loc.set_partition_bytes(m.bytes_out);
  return loc;
}
}  // namespace

void ReducePlacer::QueueLocations(JobRecord& job) {
  for (auto& [wid, sent] : job.locations_sent) {
    WorkerRecord* dest = state_.FindWorker(wid);
    if (dest == nullptr) continue;
    for (size_t i = 0; i < job.maps.size(); ++i) {
      const MapTask& m = job.maps[i];
      if (sent[i] || m.state != MapTask::State::kDone) continue;
      const WorkerRecord* src = state_.FindWorker(m.worker);
      if (src == nullptr) continue;
      sent[i] = true;
      dest->outbox_locations.push_back(LocationOf(job, i, *src));
    }
  }
}

void ReducePlacer::QueueLocation(JobRecord& job, size_t map) {
  const MapTask& m = job.maps[map];
  if (m.state != MapTask::State::kDone) return;
  const WorkerRecord* src = state_.FindWorker(m.worker);
  if (src == nullptr) return;
  for (auto& [wid, sent] : job.locations_sent) {
    WorkerRecord* dest = state_.FindWorker(wid);
    if (dest == nullptr || sent[map]) continue;
    sent[map] = true;
    dest->outbox_locations.push_back(LocationOf(job, map, *src));
  }
}

}  // namespace mr::master
