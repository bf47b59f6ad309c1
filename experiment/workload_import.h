// Workload import: an experiment's WorkloadSpec turned into jobs (JobList) for the live
// runner and the task-level simulator. The sources are the rows of the workload table
// (workload_params.h), each documented with worked examples in docs/experiments.md,
// "Workloads":
//   - generator "synthetic": seeded Poisson arrivals at a target load of the cluster,
//     log-uniform job sizes (about 1 s to 60 s alone), map-heavy and shuffle-heavy jobs;
//   - generator "asrpt": the ASRPT paper's workloads (the slotted model's generator),
//     units made seconds, slots stretched to a target load of the unified slots;
//   - the job CSV: arrival,maps,map_seconds,shuffle_bytes,reducers,reduce_seconds;
//   - a SWIM trace (Facebook 2009 samples): a time window compressed by a factor, sizes
//     through a logarithmic map onto configured ranges, clipping counted.
// Deterministic: the same spec and cluster give the same jobs on every machine (common/rng.h).
// Pure functions, thread-safe.
#pragma once

#include <string>

#include "common/status.h"
#include "experiment/experiment.h"

namespace mr::experiment {

// What an import did, for the runner's log and the report.
struct ImportSummary {
  int jobs = 0;          // jobs made
  int clipped = 0;       // jobs with at least one size clipped at a bound of its map
  int clipped_low = 0;   // jobs with a size clipped at the low bound (SWIM)
  int clipped_high = 0;  // jobs with a size clipped at the high bound (SWIM)
  // Offered load of the map and shuffle stations: work arriving per second over the span
  // of arrivals, over the cluster's capacity (MapCapacity, ShuffleCapacity). 0 when it is
  // not defined: batch arrivals, one job, or a worker group without a shuffle cap.
  double map_load = 0;
  double shuffle_load = 0;
  std::string notes;  // one human line or more: the load reached, what was clipped where
};

// The jobs `spec` describes on `cluster` (whose capacity the synthetic generator's load is
// relative to), made by its source's row of the workload table. `summary` may be null. InvalidArgument for an unknown generator, a bad or
// unknown parameter (naming it), a malformed CSV line (naming line and column) or an empty
// result; NotFound for a missing file. Jobs are returned in arrival order.
Result<JobList> MakeJobs(const WorkloadSpec& spec, const ClusterShape& cluster,
                         ImportSummary* summary);

}  // namespace mr::experiment
