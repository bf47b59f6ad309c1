#include "master/worker_registry.h"

#include <algorithm>
#include <string>

#include "master/job_trace.h"

namespace mr::master {

namespace {
constexpr uint32_t kMaxSlots = 1024;

bool CanRun(const WorkerRecord& w, TaskKindFilter kind) {
  uint32_t own = kind == TaskKindFilter::kMap ? w.info.map_slots() : w.info.reduce_slots();
  return own + w.info.unified_slots() > 0;
}
}  // namespace

Status WorkerRegistry::Validate(const proto::RegisterWorker& r) {
  if (r.map_slots() > kMaxSlots || r.reduce_slots() > kMaxSlots || r.unified_slots() > kMaxSlots) {
    return Status::InvalidArgument("slot counts must be at most " + std::to_string(kMaxSlots));
  }
  if (r.map_slots() + r.reduce_slots() + r.unified_slots() == 0) return Status::InvalidArgument("worker has no slots");
  if (r.shuffle_port() == 0 || r.shuffle_port() > 65535) return Status::InvalidArgument("bad shuffle port");
  if (!(r.speed() > 0 && r.speed() <= 1000)) return Status::InvalidArgument("speed must be in (0, 1000]");
  if (!(r.shuffle_bandwidth() >= 0 && r.shuffle_bandwidth() < 1e13)) return Status::InvalidArgument("bad bandwidth");
  if (r.host().empty() || r.host().size() > 255) return Status::InvalidArgument("bad host");
  return LabelsOf(r).status();
}

Result<WorkerLabels> WorkerRegistry::LabelsOf(const proto::RegisterWorker& r) {
  if (static_cast<size_t>(r.labels_size()) > kMaxWorkerLabels) {
    return Status::InvalidArgument("at most " + std::to_string(kMaxWorkerLabels) + " labels per worker, got " +
                                   std::to_string(r.labels_size()));
  }
  std::vector<Label> labels;
  labels.reserve(r.labels_size());
  for (const proto::WorkerLabel& l : r.labels()) {
    MR_RETURN_IF_ERROR(CheckLabel(l.key(), l.value()));
    labels.push_back({l.key(), l.value()});
  }
  return WorkerLabels::Make(std::move(labels));
}

WorkerRecord& WorkerRegistry::Add(const proto::RegisterWorker& req) {
  WorkerRecord w;
  w.id = state_.next_worker_id++;
  w.info = req;
  if (Result<WorkerLabels> labels = LabelsOf(req); labels.ok()) w.labels = std::move(labels).value();
  w.last_heartbeat = state_.Now();
  WorkerId id = w.id;
  return state_.workers[id] = std::move(w);
}

bool WorkerRegistry::FailedTooOften(const JobRecord& job, WorkerId w) const {
  auto it = job.worker_failures.find(w);
  return it != job.worker_failures.end() && it->second >= state_.options.blacklist_after &&
         state_.workers.count(w) > 0;
}

bool WorkerRegistry::Blacklisted(const JobRecord& job, WorkerId w, TaskKindFilter kind) const {
  if (!FailedTooOften(job, w)) return false;
  // Hadoop's ignore-threshold: past a share of the cluster, failures say more about the job
  // than about the workers, and blacklisting would only starve it.
  size_t listed = 0;
  for (const auto& [id, n] : job.worker_failures) listed += FailedTooOften(job, id) ? 1 : 0;
  if (listed * 100 >= static_cast<size_t>(std::max(0, state_.options.blacklist_max_percent)) * state_.workers.size()) {
    return false;
  }
  // And never the last worker that could run the kind.
  for (const auto& [id, other] : state_.workers) {
    if (id != w && CanRun(other, kind) && !FailedTooOften(job, id)) return true;
  }
  return false;
}

bool WorkerRegistry::OtherWorkerCanRun(const JobRecord& job, WorkerId except, TaskKindFilter kind) const {
  for (const auto& [id, w] : state_.workers) {
    if (id != except && CanRun(w, kind) && !Blacklisted(job, id, kind)) return true;
  }
  return false;
}

void WorkerRegistry::CountFailure(JobRecord& job, WorkerId w) {
  if (++job.worker_failures[w] == state_.options.blacklist_after) {
    // In force only while enough other workers remain (Blacklisted): the trace says which.
    bool in_force = Blacklisted(job, w, TaskKindFilter::kMap);
    Trace(job, trace::Blacklist{.t = state_.Now(), .worker = w, .in_force = in_force});
  }
}

void WorkerRegistry::DeleteOutput(WorkerId w, uint64_t job, uint32_t map, uint32_t attempt) {
  WorkerRecord* rec = state_.FindWorker(w);
  if (rec == nullptr) return;  // lost: a worker registering again offers it, and is told then
  proto::HeldMapOutput& d = rec->outbox_delete_outputs.emplace_back();
  d.set_job_id(job);
  d.set_map(map);
  d.set_attempt(attempt);
}

}  // namespace mr::master
