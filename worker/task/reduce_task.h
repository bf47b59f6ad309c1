// RunReduceTask: executes one reduce task attempt locally (no networking): merges
// the already-fetched sorted runs (one per map), groups values by key, runs the
// job's reducer and writes the output file formatted per job->output_format().
// Reentrant: tasks run concurrently on separate threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "jobs/job.h"
#include "worker/task/task_counters.h"

namespace mr::worker {

struct ReduceTaskSpec {
  uint64_t job_id = 0;
  uint32_t reduce_index = 0;
  const jobs::Job* job = nullptr;  // not owned; REQUIRES: non-null
  // Each file: records (shuffle/map_output.h encoding) sorted by key = one map's
  // partition. Empty files are fine.
  std::vector<std::string> run_files;
  std::string output_path;  // parent directories are created
  double speed = 1.0;
  std::atomic<uint64_t>* progress = nullptr;  // ticked as keys are reduced (may be null)
};

struct ReduceTaskResult {
  TaskCounters counters;
};

// On failure or cancel (Aborted) removes output_path. `cancel` may be null.
Result<ReduceTaskResult> RunReduceTask(const ReduceTaskSpec& spec, const std::atomic<bool>* cancel);

}  // namespace mr::worker
