// A prediction: the task-level simulator (model/task_sim.h) run on the experiment file's
// jobs and cluster shape with the stored calibration applied, under the same policy code
// the live master runs. Nothing measured in the runs it predicts enters. Deterministic.
#pragma once

#include <vector>

#include "common/status.h"
#include "experiment/calibration.h"
#include "experiment/experiment.h"
#include "experiment/job_results.h"
#include "scheduler/policy_options.h"

namespace mr::experiment {

// The policy's options as the experiment file gave them, checked against its policy-table
// row (the same check as the daemons' --policy flags).
Result<sched::PolicyOptions> OptionsOf(const PolicyRun& policy);

// One member of a prediction's band (band.h): every calibrated task duration moved by a draw
// on (-jitter, jitter) seconds from `seed` (JitterTaskDurations), and the simulator's own
// draws (map-time laws, failures) from its seed + `seed`.
// With map_time_cv > 0 every map's time is also drawn from the simulator's log-normal law of
// that coefficient of variation (ClusterSpec::map_time_cv, at least the calibrated cluster's).
struct BandDraw {
  double jitter = 0;
  uint64_t seed = 0;
  double map_time_cv = 0;
};

// Per job (in `jobs` order) the predicted response time; with `draw`, one member of the
// band. Errors: the policy or its options are unknown or bad, the shape cannot be simulated,
// or the policy's decisions are invalid.
Result<std::vector<double>> PredictResponses(const JobList& jobs, const ClusterShape& shape,
                                             const Calibration& calibration, const PolicyRun& policy,
                                             const BandDraw* draw = nullptr);

// The prediction's band: `runs` predictions, the first without a draw, the others with
// BandDraw{jitter, k, map_time_cv} for k = 1 .. runs - 1; per job its band (empty when runs < 2).
Result<std::vector<Band>> PredictionBand(const JobList& jobs, const ClusterShape& shape,
                                         const Calibration& calibration, const PolicyRun& policy, int runs,
                                         double jitter, double map_time_cv = 0);

}  // namespace mr::experiment
