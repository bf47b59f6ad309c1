// generator: asrpt — the workloads of "Minimizing total flow time of MapReduce jobs" made
// live (docs/experiments.md, "Workloads"). The jobs come from the slotted model's generator
// (model/slotted_workload.h), not a copy of the paper's distributions: a unit becomes
// unit_seconds of work, a map task one unit, a job's reduce units are spread evenly over
// its reduce tasks, and the slots are stretched so that the cluster's unified slots are
// offered `load`.
#include <cmath>
#include <cstdio>

#include "experiment/workload_sources.h"
#include "model/slotted/slotted_workload.h"

namespace mr::experiment {

namespace {

// Σ unified slots × speed: the capacity the paper's N machines become.
double UnifiedCapacity(const ClusterShape& cluster) {
  double c = 0;
  for (const WorkerGroup& g : cluster.groups) c += g.count * g.unified_slots * g.speed;
  return c;
}

// The first `count` jobs of the paper's generator for `options` (its slots grown until
// there are enough: the jobs of a shorter horizon are a prefix of a longer one's).
Result<std::vector<model::SlottedJob>> FirstJobs(model::SlottedGenOptions options, int count) {
  options.slots = static_cast<int64_t>(std::ceil(2 * count / options.rate)) + 10;
  for (int attempt = 0; attempt < 20; ++attempt) {
    MR_ASSIGN_OR_RETURN(std::vector<model::SlottedJob> jobs, model::GenerateSlotted(options));
    if (static_cast<int>(jobs.size()) >= count) {
      jobs.resize(count);
      return jobs;
    }
    options.slots *= 2;
  }
  return Status::InvalidArgument("generator asrpt: could not draw " + std::to_string(count) + " jobs");
}

}  // namespace

Result<JobList> GenerateAsrpt(const sched::PolicyOptions& params, uint64_t seed, const ClusterShape& cluster,
                              ImportSummary* summary) {
  const std::string& name = params.String("workload");
  const int count = static_cast<int>(params.Int("jobs"));
  const double load = params.Double("load");
  const double unit = params.Double("unit_seconds");
  const double capacity = UnifiedCapacity(cluster);
  if (!(capacity > 0)) {
    return Status::InvalidArgument(
        "generator asrpt: its load is relative to the cluster's unified slots; give a worker group "
        "unified_slots");
  }
  model::SlottedGenOptions base;
  base.rate = params.Double("rate");
  base.max_reduce_tasks = static_cast<int>(params.Int("max_reduce_tasks"));
  base.seed = seed;
  Result<model::SlottedGenOptions> options = model::PaperWorkload(name, base);
  if (!options.ok()) return Status::InvalidArgument("generator asrpt: " + options.status().message());
  MR_ASSIGN_OR_RETURN(std::vector<model::SlottedJob> slotted, FirstJobs(*options, count));
  double units = 0;
  for (const model::SlottedJob& j : slotted) units += j.maps + static_cast<double>(j.reduce_units());
  const double mean_work = unit * units / count;  // slot-seconds per job
  // `rate` jobs per slot and load × capacity / mean_work jobs per second.
  const double slot_seconds = base.rate * mean_work / (load * capacity);
  JobList out;
  for (const model::SlottedJob& j : slotted) {
    if (j.reduces.empty()) return Status::Internal("generator asrpt: a job without reduce tasks");
    model::TaskJob job;
    job.arrival = static_cast<double>(j.arrival - slotted.front().arrival) * slot_seconds;
    job.maps = j.maps;
    job.map_seconds = unit;
    job.map_bytes = 0;
    job.reducers = static_cast<int>(j.reduces.size());
    job.reduce_seconds = unit * static_cast<double>(j.reduce_units()) / job.reducers;
    job.params.hint_map_seconds = unit * j.maps;
    job.params.hint_reduce_seconds = unit * static_cast<double>(j.reduce_units());
    out.push_back(job);
  }
  // The load reached: jobs per second over the span of arrivals times the mean work.
  const double span = out.back().arrival;
  const double reached = span > 0 ? (count - 1) / span * mean_work / capacity : 0;
  char note[300];
  std::snprintf(note, sizeof note,
                "asrpt: workload %s, %d jobs, %.1f units each on average, target load %.3f of %.3g unified "
                "slot-seconds/s, reached %.3f (map and reduce work; a slot of the paper is %.3f s, %g "
                "arrivals per slot)",
                name.c_str(), count, units / count, load, capacity, reached, slot_seconds, base.rate);
  summary->notes = note;
  return out;
}

}  // namespace mr::experiment
