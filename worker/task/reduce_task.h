// RunReduceTask: executes one reduce task attempt locally (no networking): merges
// the already-fetched sorted runs (one per map), groups values by key, runs the
// job's reducer and writes the output file formatted per job->output_format().
// Before merging, every run is checked against the CRC32C it was fetched with: a run whose
// local copy went bad fails the task with DataLoss, before any output is written.
// Reentrant: tasks run concurrently on separate threads.
#pragma once

#include <atomic>
#include <functional>
#include <cstdint>
#include <string>
#include <vector>

#include "common/mapped_file.h"
#include "common/status.h"
#include "jobs/job.h"
#include "worker/task/task_counters.h"

namespace mr::worker {

class AttemptLog;  // worker/task/attempt_log.h

// Where a run's bytes are in its file: a run linked from a map output held by this worker
// is that output's whole data file, of which the run is one partition's extent
// (shuffle/net/local_fetch.h).
struct RunRange {
  uint64_t offset = 0;
  uint64_t length = MappedFile::kToEnd;
};

struct ReduceTaskSpec {
  uint64_t job_id = 0;
  uint32_t reduce_index = 0;
  const jobs::Job* job = nullptr;  // not owned; REQUIRES: non-null
  // Each file: records (shuffle/map_output.h encoding) sorted by key = one map's
  // partition. Empty files are fine.
  std::vector<std::string> run_files;
  // CRC32C of each run file's bytes, as fetched (FetchResult::crc32c). REQUIRES: one per
  // run file.
  std::vector<uint32_t> run_crcs;
  // Optional: where each run's bytes are in its file; empty means every file is one whole run.
  // REQUIRES: empty or one per run file.
  std::vector<RunRange> run_ranges;
  std::string output_path;  // parent directories are created
  double speed = 1.0;
  std::atomic<uint64_t>* progress = nullptr;  // ticked as keys are reduced (may be null)
  // Set as keys are reduced: merge input bytes consumed / all runs' bytes, in [0, 1]; for a
  // reducer that reports its own (jobs::Reducer::ReportsFraction), what it reports.
  // May be null.
  std::atomic<double>* fraction = nullptr;
  std::string* stderr_tail = nullptr;  // a child process's stderr tail (TaskContext); may be null
  AttemptLog* log = nullptr;  // the attempt's log: what its child programs write to stderr; may be null
  // Gets the task's status line (TaskContext::SetStatus) on the task thread; may be empty.
  std::function<void(std::string)> status_sink;
  // Who the attempt is, for the job's programs (jobs::TaskIdentity; working_dir is the
  // task's own, set here when the job NeedsWorkingDir: under work_dir's job directory).
  jobs::TaskIdentity identity;
  std::string work_dir;
};

struct ReduceTaskResult {
  TaskCounters counters;
};

// On failure or cancel (Aborted) removes output_path. `cancel` may be null. DataLoss if a
// run fails its checksum; then *corrupt_runs (if given) lists every such run's index.
Result<ReduceTaskResult> RunReduceTask(const ReduceTaskSpec& spec, const std::atomic<bool>* cancel,
                                       std::vector<uint32_t>* corrupt_runs = nullptr);

// Replaces run file `run` with a fresh copy from its source; returns the new copy's CRC and
// sets *range to where its bytes are (`range` is never null).
using RefetchRun = std::function<Result<uint32_t>(uint32_t run, RunRange* range)>;
inline constexpr int kMaxRefetchesPerRun = 2;

// RunReduceTask, but a run whose local copy fails its checksum is fetched again through
// `refetch` and the merge starts over, at most max_refetches times per run. Past that:
// DataLoss ("local copy of map M's run keeps failing its checksum"); a failed refetch
// returns its error (the source no longer serves the run: the usual fetch failure).
Result<ReduceTaskResult> RunReduceTaskWithRefetch(ReduceTaskSpec spec, const std::atomic<bool>* cancel,
                                                  const RefetchRun& refetch,
                                                  int max_refetches = kMaxRefetchesPerRun);

}  // namespace mr::worker
