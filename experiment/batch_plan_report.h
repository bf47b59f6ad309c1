// The report's "Batch plans" section (docs/makespan.md, "Batch orders in experiments"): for
// every policy run as a batch order or plan (johnson, reverse-johnson, balancedpools), its
// measured makespan beside the makespan planner's own prediction (DIR/plans/LABEL.plan,
// written by the runner) and the task-level simulator's, with both errors and the plan's
// pools. Reads files only; thread-safe for distinct directories.
#pragma once

#include <span>
#include <string>

#include "experiment/job_results.h"

namespace mr::experiment {

// "" when no policy of `summaries` has a plan file in DIR/plans/; a plan file that does not
// parse is shown as such in its row.
std::string BatchPlansMarkdown(const std::string& dir, std::span<const PolicySummary> summaries);

}  // namespace mr::experiment
