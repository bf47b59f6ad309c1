// One live run: a workload's jobs played on a started cluster at their arrival times (a
// submitter thread on the steady clock), waited for (polls with a deadline), then the
// master's traces copied out. The outcome is written to RUN_DIR/measured.csv and
// RUN_DIR/traces/; RUN_DIR/DONE is written last, so a run without it is incomplete and
// is redone from scratch (docs/experiments.md, "Running").
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "experiment/experiment.h"
#include "experiment/live_cluster.h"

namespace mr::experiment {

// One job of a finished run.
struct MeasuredJob {
  int job = 0;
  uint64_t id = 0;
  double submitted = 0;  // seconds after the run's start the submit returned
  double response = 0;   // master's end - submit
  double since_planned = 0;  // master's end - (run start + planned arrival)
  bool succeeded = false;
};

// Called about every poll with (jobs ended, jobs total, seconds since the run's start).
using ProgressFn = std::function<void(int done, int total, double elapsed)>;

// How the jobs are submitted.
enum class PlayMode {
  kArrivals,   // each at its planned arrival
  // In arrival order, each once the one before it has ended, whatever the planned arrivals
  // (the batch order `alone`: every job alone on the cluster, ARIA's own setting).
  kOneAtATime,
};

// Plays `jobs` on `cluster`, names each "<prefix>-<index>". Unavailable when a job has
// not ended within `timeout` seconds of the last arrival (kOneAtATime: of the later of the
// last arrival and the last submit); a failed job is kept as succeeded = false (the caller
// decides). REQUIRES: an idle cluster.
Result<std::vector<MeasuredJob>> PlayJobs(LiveCluster& cluster, const JobList& jobs, const std::string& prefix,
                                          double timeout, const ProgressFn& progress,
                                          PlayMode mode = PlayMode::kArrivals);

// measured.csv: job,id,submitted,response,since_planned,ok.
std::string MeasuredCsv(const std::vector<MeasuredJob>& jobs);
Result<std::vector<MeasuredJob>> ParseMeasuredCsv(std::string_view text);

// Copies the master's trace of every job of `measured` into `dir` (job-NNNNNN.jsonl).
Status CopyTraces(const LiveCluster& cluster, const std::vector<MeasuredJob>& measured, const std::string& dir);
// Copies every job trace the master has written so far (job-*.jsonl, the ended jobs' and the
// running ones' as far as written) into `dir`: what a failed run keeps, its job ids unknown.
Status CopyAllTraces(const LiveCluster& cluster, const std::string& dir);
// The trace file name of job `id`: "job-000012.jsonl".
std::string TraceFileName(uint64_t id);

}  // namespace mr::experiment
