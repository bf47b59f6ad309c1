// A prediction: the task-level simulator (model/task_sim.h) run on the experiment file's
// jobs and cluster shape with the stored calibration applied, under the same policy code
// the live master runs. Nothing measured in the runs it predicts enters. Deterministic.
#pragma once

#include <vector>

#include "common/status.h"
#include "experiment/calibration.h"
#include "experiment/experiment.h"

namespace mr::experiment {

// Per job (in `jobs` order) the predicted response time. Errors: the policy or its options
// are unknown or bad, the shape cannot be simulated, or the policy's decisions are invalid.
Result<std::vector<double>> PredictResponses(const JobList& jobs, const ClusterShape& shape,
                                             const Calibration& calibration, const PolicyRun& policy);

}  // namespace mr::experiment
