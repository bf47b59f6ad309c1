// The straggler trace analysis' measurements before the model (experiment/mst_trace.h):
// the analysed jobs, their successful map tasks and every map attempt's interval per
// worker; shared by the analysis (mst_trace.cc) and its assumption checks
// (mst_trace_checks.cc). Internal to experiment/.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/units.h"
#include "experiment/mst_trace.h"
#include "trace/attempts.h"

namespace mr::experiment::mst {

// One job of the traces: its submission and its ended map attempts (each with a worker
// and a worker-measured start).
struct JobMaps {
  std::string id;
  double submit = std::numeric_limits<double>::quiet_NaN();
  int maps = 0;
  std::vector<trace::Attempt> attempts;
};

// A successful map task of an analysed job: its last successful attempt.
struct Task {
  int job = 0;  // index into the analysed jobs (by submission)
  double submit = 0;
  int64_t worker = 0;
  double start = 0, end = 0;
};

// The analysed jobs' tasks and the per-node measurements, before the model.
struct Measured {
  std::vector<JobMaps> jobs;  // analysed, by (submit, id)
  std::vector<Task> tasks;
  std::map<int64_t, std::vector<std::pair<double, double>>> map_intervals;  // every map attempt
};

// The report's number formats: 4 significant digits, a signed percent change, a share.
inline std::string Num(double v) { return FormatNumber(v, "%.4g"); }
inline std::string Percent(double v) { return FormatNumber(100 * v, "%+.1f") + "%"; }
inline std::string Share(double v) { return FormatNumber(100 * v, "%.1f") + "%"; }

// Fills r.assumptions: each of the model's assumptions measured, with its verdict.
// REQUIRES: r's nodes, predictions (the independent one last) and sojourn mean are set.
void CheckAssumptions(const Measured& m, MstTraceReport& r);

}  // namespace mr::experiment::mst
