#include "experiment/prediction.h"

#include <map>

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
                                             const Calibration& calibration, const PolicyRun& policy) {
  MR_ASSIGN_OR_RETURN(sched::PolicyOptions options, OptionsOf(policy));
  MR_ASSIGN_OR_RETURN(std::unique_ptr<sched::Scheduler> chosen, sched::CreateScheduler(policy.policy, options));
  std::map<std::string, std::string, std::less<>> flags(policy.placement.begin(), policy.placement.end());
  MR_ASSIGN_OR_RETURN(sched::PlacementConfig placement, sched::PlacementConfigFromFlags(flags));
  MR_ASSIGN_OR_RETURN(std::unique_ptr<sched::Scheduler> scheduler, sched::WithPlacement(std::move(chosen), placement));
  MR_ASSIGN_OR_RETURN(model::ClusterSpec cluster, CalibratedCluster(shape, calibration));
  JobList calibrated = CalibratedJobs(jobs, shape, calibration);
  const sched::Speculator speculator(sched::SpeculatorOptions{});  // the master's defaults
  MR_ASSIGN_OR_RETURN(model::TaskSimResult sim, model::SimulateTasks(calibrated, cluster, *scheduler,
                                                                     policy.speculative ? &speculator : nullptr));
  return sim.response;
}

}  // namespace mr::experiment
