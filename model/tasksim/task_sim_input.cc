#include "model/tasksim/task_sim_input.h"

#include <cmath>
#include <string>

namespace mr::model {

std::vector<WorkerSpec> ResolveWorkers(const ClusterSpec& c) {
  if (!c.worker_specs.empty()) return c.worker_specs;
  std::vector<WorkerSpec> out;
  for (int i = 0; i < c.workers; ++i) {
    WorkerSpec w;
    w.map_slots = c.map_slots;
    w.reduce_slots = c.reduce_slots;
    w.unified_slots = c.unified_slots;
    w.speed = c.speeds.empty() ? 1.0 : c.speeds[static_cast<size_t>(i)];
    w.shuffle_bandwidth = c.shuffle_bandwidth;
    out.push_back(w);
  }
  return out;
}

// The homogeneous cases multiply (as before heterogeneous workers, so fluid sizes
// stay bit-identical); lists are summed.
double MapCapacity(const ClusterSpec& c) {
  if (c.worker_specs.empty() && c.speeds.empty())
    return static_cast<double>(c.workers) * (c.map_slots + c.unified_slots);
  double sum = 0;
  for (const WorkerSpec& w : ResolveWorkers(c)) sum += (w.map_slots + w.unified_slots) * w.speed;
  return sum;
}

double ShuffleCapacity(const ClusterSpec& c) {
  if (c.worker_specs.empty()) return c.workers * c.shuffle_bandwidth;
  double sum = 0;
  for (const WorkerSpec& w : c.worker_specs) sum += w.shuffle_bandwidth;
  return sum;
}

namespace tasksim {
namespace {

bool FinitePositive(double v) { return std::isfinite(v) && v > 0; }
bool FiniteNonNegative(double v) { return std::isfinite(v) && v >= 0; }

Status ValidateCluster(const ClusterSpec& c) {
  if (c.worker_specs.empty()) {
    if (c.workers < 1 || c.map_slots < 0 || c.reduce_slots < 0 || c.unified_slots < 0 ||
        c.map_slots + c.unified_slots < 1 || c.reduce_slots + c.unified_slots < 1) {
      return Status::InvalidArgument(
          "need at least 1 worker, 1 map slot and 1 reduce slot per worker (unified slots count "
          "as both)");
    }
    if (!c.speeds.empty() && c.speeds.size() != static_cast<size_t>(c.workers))
      return Status::InvalidArgument("need one speed per worker");
  }
  int map_capable = 0, reduce_capable = 0;
  const std::vector<WorkerSpec> workers = ResolveWorkers(c);
  for (size_t i = 0; i < workers.size(); ++i) {
    const WorkerSpec& w = workers[i];
    const std::string name = "worker " + std::to_string(i + 1) + ": ";
    if (w.map_slots < 0 || w.reduce_slots < 0 || w.unified_slots < 0 ||
        w.map_slots + w.reduce_slots + w.unified_slots < 1 || w.map_slots > 10000 ||
        w.reduce_slots > 10000 || w.unified_slots > 10000) {
      return Status::InvalidArgument(name + "slots must be in 0..10000, at least one in all");
    }
    if (!FinitePositive(w.speed))
      return Status::InvalidArgument(name + "speed must be a finite number > 0");
    if (!FinitePositive(w.shuffle_bandwidth))
      return Status::InvalidArgument(
          name + "shuffle bandwidth must be a finite number of bytes/s > 0");
    if (Status s = w.straggler.Validate(); !s.ok()) return s.WithContext(name.substr(0, name.size() - 2));
    map_capable += w.map_slots + w.unified_slots;
    reduce_capable += w.reduce_slots + w.unified_slots;
  }
  if (workers.empty() || map_capable < 1 || reduce_capable < 1)
    return Status::InvalidArgument("the cluster needs a map-capable and a reduce-capable slot");
  if (!(c.slow_start >= 0 && c.slow_start <= 1))
    return Status::InvalidArgument("slow-start must be in [0, 1]");
  if (!(c.map_time_cv >= 0 && c.map_time_cv <= 10))
    return Status::InvalidArgument("map time cv must be in [0, 10]");
  if (c.host_cores < 0) return Status::InvalidArgument("host cores must be >= 0 (0 = a core per slot)");
  if (!FiniteNonNegative(c.decision_latency))
    return Status::InvalidArgument("decision latency must be a finite number of seconds >= 0");
  if (!FiniteNonNegative(c.arrival_latency))
    return Status::InvalidArgument("arrival latency must be a finite number of seconds >= 0");
  if (!FiniteNonNegative(c.reduce_ready_delay))
    return Status::InvalidArgument("reduce ready delay must be a finite number of seconds >= 0");
  if (!FiniteNonNegative(c.refresh_rounds))
    return Status::InvalidArgument("refresh rounds must be a finite number of seconds >= 0 (0 = off)");
  for (size_t i = 0; i < c.round_times.size(); ++i) {
    if (!std::isfinite(c.round_times[i]) || (i > 0 && c.round_times[i] < c.round_times[i - 1]))
      return Status::InvalidArgument("round times must be finite and ascending");
  }
  if (c.policy_start && !std::isfinite(*c.policy_start))
    return Status::InvalidArgument("policy start must be a finite time in seconds");
  if (!(c.failure_prob >= 0 && c.failure_prob < 1) ||
      !(c.failure_point > 0 && c.failure_point <= 1) || c.max_attempts < 1) {
    return Status::InvalidArgument(
        "need failure probability in [0, 1), failure point in (0, 1], max attempts >= 1");
  }
  return Status::Ok();
}

bool ValidDurations(const std::vector<double>& d, int count) {
  if (d.empty()) return true;
  if (d.size() != static_cast<size_t>(count)) return false;
  for (double v : d) {
    if (!FiniteNonNegative(v)) return false;
  }
  return true;
}

Status ValidateJob(const TaskJob& j, size_t i) {
  const std::string name = "job " + std::to_string(i) + ": ";
  const bool map_seconds_ok =
      j.map_durations.empty() ? FinitePositive(j.map_seconds) : FiniteNonNegative(j.map_seconds);
  bool ok = std::isfinite(j.arrival) && j.arrival >= 0 && j.maps >= 1 && j.maps <= 1000000 &&
            map_seconds_ok && FiniteNonNegative(j.map_bytes) && j.reducers >= 1 &&
            j.reducers <= 100000 && FiniteNonNegative(j.reduce_seconds);
  if (!ok) {
    return Status::InvalidArgument(
        name +
        "need arrival >= 0, 1..1000000 maps, map seconds > 0, map bytes >= 0, "
        "1..100000 reducers, reduce seconds >= 0 (all finite)");
  }
  // The per-job parameters: the ranges `mr submit` and the master check (scheduler/job_params.h).
  if (Status st = j.params.Validate(sched::ParamNames::kKey); !st.ok())
    return st.WithContext("job " + std::to_string(i));
  if (Status st = j.map_time.Validate(); !st.ok()) return st.WithContext("job " + std::to_string(i));
  if (!ValidDurations(j.map_durations, j.maps) || !ValidDurations(j.reduce_durations, j.reducers))
    return Status::InvalidArgument(
        name + "explicit durations: one finite number >= 0 per task (maps, resp. reducers)");
  if ((!j.map_overheads.empty() && !ValidDurations(j.map_overheads, j.maps)) ||
      (!j.reduce_overheads.empty() && !ValidDurations(j.reduce_overheads, j.reducers)))
    return Status::InvalidArgument(
        name + "slot overheads: one finite number >= 0 per task (maps, resp. reducers)");
  return Status::Ok();
}

}  // namespace

Status ValidateTaskSimInput(std::span<const TaskJob> jobs, const ClusterSpec& cluster) {
  MR_RETURN_IF_ERROR(ValidateCluster(cluster));
  for (size_t i = 0; i < jobs.size(); ++i) MR_RETURN_IF_ERROR(ValidateJob(jobs[i], i));
  return Status::Ok();
}

Status AdmitTaskSimJobs(std::span<const TaskJob> jobs, const ClusterSpec& cluster,
                        const sched::Scheduler& policy) {
  const std::vector<WorkerSpec> workers = ResolveWorkers(cluster);
  for (size_t i = 0; i < jobs.size(); ++i) {
    const std::string name = "job " + std::to_string(i);
    if (Status st = policy.AdmitJob(jobs[i].params); !st.ok()) return st.WithContext(name);
    bool maps = false, reduces = false;
    for (const WorkerSpec& w : workers) {
      if (!policy.MayRunOn(jobs[i].params, w.labels)) continue;
      maps = maps || w.map_slots + w.unified_slots > 0;
      reduces = reduces || w.reduce_slots + w.unified_slots > 0;
    }
    if (!maps || !reduces) {
      return Status::InvalidArgument(name + ": policy " + std::string(policy.name()) + " lets it run on no worker with a " +
                                     (maps ? "reduce" : "map") + "-capable slot (its queue's label?)");
    }
  }
  return Status::Ok();
}

}  // namespace tasksim
}  // namespace mr::model
