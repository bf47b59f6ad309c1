#include "experiment/prediction.h"

#include <algorithm>
#include <map>

#include "experiment/band.h"
#include "model/tasksim/task_sim.h"
#include "scheduler/policy_flags.h"
#include "scheduler/stages/placed_scheduler.h"
#include "scheduler/scheduler.h"
#include "scheduler/stages/speculator.h"

namespace mr::experiment {

Result<sched::PolicyOptions> OptionsOf(const PolicyRun& policy) {
  std::map<std::string, std::string, std::less<>> given(policy.options.begin(), policy.options.end());
  return sched::PolicyOptionsFromFlags(policy.policy, given);
}

Result<std::vector<double>> PredictResponses(const JobList& jobs, const ClusterShape& shape,
                                             const Calibration& calibration, const PolicyRun& policy,
                                             const BandDraw* draw) {
  MR_ASSIGN_OR_RETURN(sched::PolicyOptions options, OptionsOf(policy));
  MR_ASSIGN_OR_RETURN(std::unique_ptr<sched::Scheduler> chosen, sched::CreateScheduler(policy.policy, options));
  std::map<std::string, std::string, std::less<>> flags(policy.placement.begin(), policy.placement.end());
  MR_ASSIGN_OR_RETURN(sched::PlacementConfig placement, sched::PlacementConfigFromFlags(flags));
  MR_ASSIGN_OR_RETURN(std::unique_ptr<sched::Scheduler> scheduler, sched::WithPlacement(std::move(chosen), placement));
  MR_ASSIGN_OR_RETURN(model::ClusterSpec cluster, CalibratedCluster(shape, calibration));
  JobList calibrated = CalibratedJobs(jobs, shape, calibration);
  if (draw != nullptr) {
    cluster.seed += draw->seed;
    cluster.map_time_cv = std::max(cluster.map_time_cv, draw->map_time_cv);
    JitterTaskDurations(draw->jitter, draw->seed, cluster.map_time_cv, &calibrated);
  }
  const sched::Speculator speculator(sched::SpeculatorOptions{});  // the master's defaults
  MR_ASSIGN_OR_RETURN(model::TaskSimResult sim, model::SimulateTasks(calibrated, cluster, *scheduler,
                                                                     policy.speculative ? &speculator : nullptr));
  return sim.response;
}

Result<std::vector<Band>> PredictionBand(const JobList& jobs, const ClusterShape& shape,
                                         const Calibration& calibration, const PolicyRun& policy, int runs,
                                         double jitter, double map_time_cv) {
  std::vector<std::vector<double>> responses;
  for (int k = 0; k < runs && runs >= 2; ++k) {
    const BandDraw draw{jitter, static_cast<uint64_t>(k), map_time_cv};
    MR_ASSIGN_OR_RETURN(std::vector<double> r,
                        PredictResponses(jobs, shape, calibration, policy, k == 0 ? nullptr : &draw));
    responses.push_back(std::move(r));
  }
  return BandsOf(responses);
}

}  // namespace mr::experiment
