// The SRPT lower bound of "Minimizing total flow time of MapReduce jobs" (the slotted
// model's, model/slotted_bounds.h) on the work a live run measured: every slot the N
// unified slots go to the jobs with the least remaining work, ignoring that reduces wait
// for maps. The summary shows it next to each policy's total flow time
// (docs/experiments.md, "Results"). Pure functions apart from reading a run's files.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "common/status.h"
#include "experiment/job_results.h"
#include "trace/event.h"

namespace mr::experiment {

// One job of a run: its planned arrival (seconds from the run's start) and the
// slot-seconds its successful map and reduce attempts took (worker-measured start to end).
struct MeasuredWork {
  double arrival = 0;
  double map_seconds = 0;
  double reduce_seconds = 0;
};

// Adds the durations of `events`' successful attempts (attempt_end, status ok: t - start,
// start 0 when absent) to work->map_seconds (tasks "m-...") and work->reduce_seconds ("r-...").
void AddTraceWork(const std::vector<trace::Event>& events, MeasuredWork* work);

// The bound in seconds: a slot lasts `round` seconds; a job arrives in slot
// floor(arrival / round) + 1 and brings max(1, round(map_seconds / round)) map units and
// max(1, round(reduce_seconds / round)) reduce units; the slotted SRPT bound on `machines`
// machines, its total flow time (sum of f - a + 1 slots) times `round`. Work rounded to
// whole rounds makes it approximate by about a round per job. InvalidArgument for
// machines < 1, round <= 0 or no jobs.
Result<double> SrptBoundSeconds(std::span<const MeasuredWork> jobs, int machines, double round);

// The bound of one finished run: RUN_DIR/measured.csv names each job's id, its trace is
// RUN_DIR/traces/job-ID.jsonl, its planned arrival comes from `rows` (the run's rows of
// jobs.csv, by job index). NotFound when a file is missing.
Result<double> RunSrptBound(const std::string& run_dir, const std::vector<JobResult>& rows, int machines,
                            double round);

}  // namespace mr::experiment
