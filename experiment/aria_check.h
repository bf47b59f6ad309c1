// ARIA's stage estimates checked on a live run (docs/makespan.md, "ARIA's estimates checked
// live"): for every job of a finished run (DIR/runs/LABEL-REP/traces), its profile measured
// from its trace (model/makespan/profile_extract.h), the paper's estimate of its map and
// reduce stages (the average of the bounds, aria_profile.h) on the slots the job had — the
// most of its map, resp. reduce, attempts that ran at once — beside the stages the trace
// measured. "Orchestrating an Ensemble of MapReduce Jobs for Minimizing Their Makespan"
// claims the estimate within about 10% of the measured stage. Reads files only; thread-safe
// for distinct directories.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "trace/event.h"

namespace mr::experiment {

struct StageCheck {
  std::string run;  // LABEL-REP
  std::string job;  // job id
  int map_slots = 0, reduce_slots = 0;  // the most attempts of each kind at once
  double map_measured = 0, map_estimate = 0;
  double reduce_measured = 0, reduce_estimate = 0;  // both 0 for a map-only job
};

// The most attempts of kind 'm' or 'r' (task ids m-..., r-...) running at once in one job's
// trace, over its attempt_end events' [start, t]; at least 1.
int PeakAttempts(const std::vector<trace::Event>& events, char kind);

// One job's check; the profile's errors (a job that did not succeed).
Result<StageCheck> CheckJobStages(const std::vector<trace::Event>& events);

// Every job of every finished run of DIR (runs with a DONE marker); a trace that cannot be
// read or profiled is skipped.
std::vector<StageCheck> CheckRunStages(const std::string& dir);

// The report's "ARIA stage estimates" section: per policy label, the jobs checked, the
// median and largest |estimate / measured − 1| of each stage and how many are within 10%;
// "" when there is no job. Stages shorter than 0.1 s are left out of the errors (a map-only
// job's reduce stage, a reduce stage that is only the last reduce's write).
std::string AriaMarkdown(const std::vector<StageCheck>& checks);

// The checks as CSV: run,job,map_slots,reduce_slots,map_measured,map_estimate,
// reduce_measured,reduce_estimate (DIR/aria.csv).
std::string AriaCsv(const std::vector<StageCheck>& checks);

}  // namespace mr::experiment
