#include "experiment/batch_plan_report.h"

#include <cmath>
#include <cstdio>

#include "common/file_util.h"
#include "experiment/batch_order.h"

namespace mr::experiment {

namespace {

std::string Fixed2(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string ErrorOf(double predicted, double measured) {
  if (!(measured > 0)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * std::abs(predicted / measured - 1));
  return buf;
}

}  // namespace

std::string BatchPlansMarkdown(const std::string& dir, std::span<const PolicySummary> summaries) {
  std::string rows;
  for (const PolicySummary& s : summaries) {
    const std::string path = JoinPath(JoinPath(dir, "plans"), s.policy + ".plan");
    if (!PathExists(path)) continue;
    Result<std::string> text = ReadFileToString(path);
    Result<PlannedBatch> plan = text.ok() ? ParsePlannedBatchText(*text) : Result<PlannedBatch>(text.status());
    if (!plan.ok()) {
      rows += "| " + s.policy + " | " + Fixed2(s.measured_makespan) + " | unreadable plan: " + plan.status().message() +
              " | | | | | |\n";
      continue;
    }
    rows += "| " + s.policy + " | " + Fixed2(s.measured_makespan) + " | " + Fixed2(plan->planner_makespan) + " | " +
            ErrorOf(plan->planner_makespan, s.measured_makespan) + " | " + Fixed2(s.predicted_makespan) + " | " +
            ErrorOf(s.predicted_makespan, s.measured_makespan) + " | " + Fixed2(plan->johnson_makespan) + " | " +
            plan->pools + " |\n";
  }
  if (rows.empty()) return "";
  return "\n## Batch plans\n\n"
         "Makespans in seconds, mean over runs. planner: the makespan planner's list-scheduling\n"
         "simulator on the jobs' task seconds (docs/makespan.md), for this order or plan and for\n"
         "Johnson's order on the whole cluster; task-level: the experiment's prediction (the live\n"
         "policy in the task-level simulator with the calibration). Pools list job indices in run order.\n\n"
         "| order / plan | measured | planner | error | task-level | error | planner, Johnson | pools |\n"
         "|---|---:|---:|---:|---:|---:|---:|---|\n" +
         rows;
}

}  // namespace mr::experiment
