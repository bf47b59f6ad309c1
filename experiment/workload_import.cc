#include "experiment/workload_import.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "experiment/cluster_shape.h"
#include "experiment/workload_params.h"
#include "experiment/workload_sources.h"

namespace mr::experiment {

TaskRules ReadTaskRules(const sched::PolicyOptions& params, const ClusterShape& cluster) {
  TaskRules r;
  r.task_seconds = params.Double("task_seconds");
  r.max_map_bytes = static_cast<double>(params.Int("max_map_bytes"));
  r.max_maps = static_cast<int>(params.Int("max_maps"));
  r.reducers = static_cast<int>(params.Int("reducers"));
  if (r.reducers == 0) r.reducers = ReduceSlots(cluster);
  r.reduce_seconds = params.Double("reduce_seconds");
  return r;
}

model::TaskJob JobFromTotals(double arrival, double map_work, double shuffle_bytes,
                             const TaskRules& rules, bool* maps_clipped) {
  // The 1e-9 keeps a total that is an exact multiple of a task (up to rounding) from
  // getting one more task.
  double wanted = std::ceil(
      std::max(map_work / rules.task_seconds, shuffle_bytes / rules.max_map_bytes) - 1e-9);
  int maps = static_cast<int>(std::clamp(wanted, 1.0, static_cast<double>(rules.max_maps)));
  if (maps_clipped != nullptr) *maps_clipped = wanted > rules.max_maps;
  model::TaskJob job;
  job.arrival = arrival;
  job.maps = maps;
  job.map_seconds = map_work / maps;
  job.map_bytes = shuffle_bytes / maps;
  job.reducers = rules.reducers;
  job.reduce_seconds = rules.reduce_seconds;
  job.params.hint_map_seconds = map_work;
  job.params.hint_shuffle_bytes = shuffle_bytes;
  job.params.hint_reduce_seconds = rules.reducers * rules.reduce_seconds;
  return job;
}

double MapCapacity(const ClusterShape& cluster) {
  double c = 0;
  for (const WorkerGroup& g : cluster.groups) c += g.count * (g.map_slots + g.unified_slots) * g.speed;
  return c;
}

double ShuffleCapacity(const ClusterShape& cluster) {
  double c = 0;
  for (const WorkerGroup& g : cluster.groups) {
    const double bandwidth = SimulatedShuffleBandwidth(cluster, g);  // a netns cluster's link
    if (!(bandwidth > 0)) return 0;
    c += g.count * bandwidth;
  }
  return c;
}

int ReduceSlots(const ClusterShape& cluster) {
  int n = 0;
  for (const WorkerGroup& g : cluster.groups) n += g.count * (g.reduce_slots + g.unified_slots);
  return n;
}

namespace {

// Offered load over the span of arrivals: rate (n-1)/span times the mean work, over the
// capacity. Undefined (0) for one job, a zero span or no finite capacity.
void MeasureLoad(const JobList& jobs, const ClusterShape& cluster, ImportSummary* s) {
  double span = jobs.back().arrival - jobs.front().arrival;
  if (jobs.size() < 2 || !(span > 0)) return;
  double work = 0, bytes = 0;
  for (const model::TaskJob& j : jobs) {
    work += j.maps * j.map_seconds;
    bytes += j.maps * j.map_bytes;
  }
  double rate = static_cast<double>(jobs.size() - 1) / span;
  double n = static_cast<double>(jobs.size());
  s->map_load = rate * work / n / MapCapacity(cluster);
  double shuffle = ShuffleCapacity(cluster);
  s->shuffle_load = shuffle > 0 ? rate * bytes / n / shuffle : 0;
}

std::string LoadNote(const JobList& jobs, const ImportSummary& s) {
  char line[200];
  if (s.map_load == 0) {
    std::snprintf(line, sizeof(line),
                  "%zu jobs; offered load not defined (batch, one job or no shuffle cap)",
                  jobs.size());
  } else {
    std::snprintf(line, sizeof(line),
                  "%zu jobs over %.1f s of arrivals; offered load: map %.3f, shuffle %.3f",
                  jobs.size(), jobs.back().arrival - jobs.front().arrival, s.map_load,
                  s.shuffle_load);
  }
  return line;
}

}  // namespace

Result<JobList> MakeJobs(const WorkloadSpec& spec, const ClusterShape& cluster,
                         ImportSummary* summary) {
  if (MapCapacity(cluster) <= 0 || ReduceSlots(cluster) <= 0) {
    return Status::InvalidArgument("the cluster needs at least one map slot and one reduce slot");
  }
  MR_ASSIGN_OR_RETURN(sched::PolicyOptions params, ResolveWorkloadParams(spec));
  ImportSummary local;
  ImportSummary* s = summary != nullptr ? summary : &local;
  *s = ImportSummary();
  MR_ASSIGN_OR_RETURN(JobList jobs, FindWorkloadSource(spec)->make(spec, params, cluster, s));
  if (jobs.empty()) return Status::InvalidArgument("the workload makes no jobs");
  if (spec.batch) {
    for (model::TaskJob& j : jobs) j.arrival = 0;
  }
  std::stable_sort(jobs.begin(), jobs.end(), [](const model::TaskJob& a, const model::TaskJob& b) {
    return a.arrival < b.arrival;
  });
  s->jobs = static_cast<int>(jobs.size());
  MeasureLoad(jobs, cluster, s);
  std::string load = LoadNote(jobs, *s);
  s->notes = s->notes.empty() ? load : load + "\n" + s->notes;
  return jobs;
}

}  // namespace mr::experiment
