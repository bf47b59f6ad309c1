#include "experiment/srpt_bound.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "common/file_util.h"
#include "experiment/live_run.h"
#include "model/slotted/slotted_bounds.h"
#include "trace/reader.h"

namespace mr::experiment {

namespace {

int Units(double seconds, double round) {
  return std::max(1, static_cast<int>(std::lround(seconds / round)));
}

}  // namespace

void AddTraceWork(const std::vector<trace::Event>& events, MeasuredWork* work) {
  for (const trace::Event& ev : events) {
    const auto* e = std::get_if<trace::AttemptEnd>(&ev);
    if (e == nullptr || e->status != "ok") continue;
    const std::string task = e->task.value_or("");
    const double seconds = std::max(0.0, e->t - e->start.value_or(0));
    if (!task.empty() && task[0] == 'm') work->map_seconds += seconds;
    if (!task.empty() && task[0] == 'r') work->reduce_seconds += seconds;
  }
}

Result<double> SrptBoundSeconds(std::span<const MeasuredWork> jobs, int machines, double round) {
  if (machines < 1 || !(round > 0) || jobs.empty()) {
    return Status::InvalidArgument("SRPT bound: needs jobs, machines >= 1 and a round > 0");
  }
  std::vector<model::SlottedJob> slotted;
  for (const MeasuredWork& w : jobs) {
    model::SlottedJob j;
    j.arrival = static_cast<int64_t>(std::floor(std::max(0.0, w.arrival) / round)) + 1;
    j.maps = Units(w.map_seconds, round);
    j.reduces = {Units(w.reduce_seconds, round)};
    slotted.push_back(std::move(j));
  }
  std::stable_sort(slotted.begin(), slotted.end(),
                   [](const model::SlottedJob& a, const model::SlottedJob& b) { return a.arrival < b.arrival; });
  MR_ASSIGN_OR_RETURN(model::SlottedResult bound, model::SrptLowerBound(slotted, machines));
  return static_cast<double>(bound.total_flow_time) * round;
}

Result<double> RunSrptBound(const std::string& run_dir, const std::vector<JobResult>& rows, int machines,
                            double round) {
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(JoinPath(run_dir, "measured.csv")));
  MR_ASSIGN_OR_RETURN(std::vector<MeasuredJob> measured, ParseMeasuredCsv(text));
  std::map<int, double> arrival;
  for (const JobResult& r : rows) arrival[r.job] = r.arrival;
  std::vector<MeasuredWork> work;
  for (const MeasuredJob& m : measured) {
    MeasuredWork w;
    w.arrival = arrival.count(m.job) ? arrival[m.job] : 0;
    MR_ASSIGN_OR_RETURN(auto events, trace::ReadTraceFile(JoinPath(JoinPath(run_dir, "traces"), TraceFileName(m.id))));
    AddTraceWork(events, &w);
    work.push_back(w);
  }
  return SrptBoundSeconds(work, machines, round);
}

}  // namespace mr::experiment
