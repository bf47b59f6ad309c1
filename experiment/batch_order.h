// Batch orders in experiments (docs/makespan.md, "Batch orders in experiments"): an
// experiment's `johnson` and `reverse-johnson` runs play the batch under fifo with the jobs
// submitted in the makespan planner's order. Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "experiment/experiment.h"
#include "experiment/workload_import.h"

namespace mr::experiment {

// How far apart the ordered jobs arrive (seconds): enough for the master to see them in
// order, nothing next to a job's seconds.
inline constexpr double kBatchOrderStagger = 0.001;

// The positions of `jobs` in `order` ("johnson" or "reverse-johnson"): Johnson's rule on
// each job's ARIA stage estimates (its maps and reduces of its task seconds) on the
// cluster's map and reduce slots (unified slots count as both). InvalidArgument for another
// order or a job list that is not a batch (an arrival other than 0).
Result<std::vector<int>> BatchOrder(const JobList& jobs, const ClusterShape& shape, const std::string& order);

// `jobs` with the arrival of the job at position p of BatchOrder set to p ×
// kBatchOrderStagger, so that the runner submits them in that order; `jobs` itself when
// `order` is empty. The jobs keep their indices (results name the same jobs).
Result<JobList> OrderedBatch(const JobList& jobs, const ClusterShape& shape, const std::string& order);

}  // namespace mr::experiment
