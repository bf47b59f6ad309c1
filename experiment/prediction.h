// A prediction: the task-level simulator (model/task_sim.h) run on the experiment file's
// jobs and cluster shape with the stored calibration applied, under the same policy code
// the live master runs. Nothing measured in the runs it predicts enters. Deterministic.
#pragma once

#include <vector>

#include "common/status.h"
#include "experiment/calibration.h"
#include "experiment/experiment.h"
#include "scheduler/policy_options.h"

namespace mr::experiment {

// The policy's options as the experiment file gave them, checked against its policy-table
// row (the same check as the daemons' --policy flags).
Result<sched::PolicyOptions> OptionsOf(const PolicyRun& policy);

// Per job (in `jobs` order) the predicted response time. Errors: the policy or its options
// are unknown or bad, the shape cannot be simulated, or the policy's decisions are invalid.
Result<std::vector<double>> PredictResponses(const JobList& jobs, const ClusterShape& shape,
                                             const Calibration& calibration, const PolicyRun& policy);

}  // namespace mr::experiment
