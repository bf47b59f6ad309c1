// generator: makespan — the batches of "Orchestrating an Ensemble of MapReduce Jobs for
// Minimizing Their Makespan" (model/makespan/makespan_workloads.h) made live
// (docs/experiments.md, "Workloads"; docs/makespan.md, "Workloads"). Every job arrives at 0
// (a batch). One scale factor, `time_scale`, turns the paper's time unit into live seconds;
// a live synthetic job gives all its maps one duration and all its reduces another, so
// each is the mean of the job's drawn tasks (the totals are exact); a map-only job gets one
// reduce of 0 s (a live job needs a reducer).
#include <cstdio>

#include "common/stats.h"
#include "experiment/workload_sources.h"
#include "model/makespan/makespan_workloads.h"

namespace mr::experiment {

Status CheckMakespanWorkloadName(std::string_view text) {
  for (const model::MakespanWorkloadInfo& w : model::MakespanWorkloads()) {
    if (text == w.name) return Status::Ok();
  }
  return Status::InvalidArgument("unknown makespan workload '" + std::string(text) +
                                 "' (known: " + model::MakespanWorkloadNames() + ")");
}

Result<JobList> GenerateMakespanBatch(const sched::PolicyOptions& params, uint64_t seed, const ClusterShape&,
                                      ImportSummary* summary) {
  model::MakespanWorkloadOptions o;
  o.name = params.String("workload");
  o.jobs = static_cast<int>(params.Int("jobs"));
  o.seed = seed;
  const double scale = params.Double("time_scale");
  Result<std::vector<model::BatchJob>> batch = model::GenerateMakespanWorkload(o);
  if (!batch.ok()) return Status::InvalidArgument("generator makespan: " + batch.status().message());
  JobList out;
  double map_work = 0, reduce_work = 0;
  int map_only = 0;
  for (const model::BatchJob& b : *batch) {
    model::TaskJob job;
    job.arrival = 0;
    job.maps = static_cast<int>(b.map_durations.size());
    job.map_seconds = scale * Mean(b.map_durations);
    job.map_bytes = 0;
    job.reducers = b.reduce_durations.empty() ? 1 : static_cast<int>(b.reduce_durations.size());
    job.reduce_seconds = b.reduce_durations.empty() ? 0 : scale * Mean(b.reduce_durations);
    map_only += b.reduce_durations.empty() ? 1 : 0;
    job.params.hint_map_seconds = job.map_seconds * job.maps;
    job.params.hint_reduce_seconds = job.reduce_seconds * job.reducers;
    map_work += job.params.hint_map_seconds;
    reduce_work += job.params.hint_reduce_seconds;
    out.push_back(std::move(job));
  }
  char note[300];
  std::snprintf(note, sizeof note,
                "makespan: workload %s, %zu jobs at time 0, %d map-only (one 0 s reduce each), time_scale %g s per "
                "unit: %.1f map and %.1f reduce slot-seconds in all",
                o.name.c_str(), out.size(), map_only, scale, map_work, reduce_work);
  summary->notes = note;
  return out;
}

}  // namespace mr::experiment
