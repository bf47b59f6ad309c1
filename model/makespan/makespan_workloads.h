// The batches of "Orchestrating an Ensemble of MapReduce Jobs for Minimizing Their Makespan"
// (section 4.1; docs/makespan.md, "Workloads"): Synthetic1 (unimodal and bimodal), Synthetic2
// (bimodal), Yahoo! M45 (unimodal and bimodal) and the Facebook 2009 table. Every job is
// drawn whole: its numbers of map and reduce tasks, a scale factor, then each task's duration
// (the distribution's draw times the factor). N(μ, σ) is, as in the paper, the normal law of
// mean μ and standard deviation σ; a draw outside its range (a duration <= 0, a task count
// below 1) is drawn again: the law truncated to its range. Where the paper leaves a number
// open the choice is stated in the docs. Jobs in arrival order (the order drawn); all arrive
// at time 0. Deterministic for a seed (common/rng.h); thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/status.h"
#include "model/makespan/batch_sim.h"

namespace mr::model {

struct MakespanWorkloadInfo {
  const char* name;
  const char* summary;
  int default_jobs;   // the paper's size
  bool fixed_jobs;    // the Facebook table: always its 100 jobs
};

// synthetic1-unimodal, synthetic1-bimodal, synthetic2, yahoo-unimodal, yahoo-bimodal,
// facebook.
std::span<const MakespanWorkloadInfo> MakespanWorkloads();
std::string MakespanWorkloadNames();  // "synthetic1-unimodal, ..."

struct MakespanWorkloadOptions {
  std::string name = "synthetic1-bimodal";
  int jobs = 0;  // 0: the workload's default (100); the Facebook table takes only 0 or 100
  uint64_t seed = 1;
};

// InvalidArgument for an unknown name (listing the known ones), jobs < 0 or > 100000, or a
// job count the Facebook table does not have.
Result<std::vector<BatchJob>> GenerateMakespanWorkload(const MakespanWorkloadOptions& options);

}  // namespace mr::model
