// `mr batch run PLAN` (docs/makespan.md, "Running a plan"): a plan file's batch submitted to a
// running master as synthetic jobs (each job its plan's maps, reduces and mean task seconds),
// in one of the plan's schedules, then waited for; prints each job's response and the
// measured makespan beside the plan's prediction. Nothing is submitted when the plan was
// made for another cluster shape, or when its two BalancedPools pools meet a master not
// running the capacity policy.
#pragma once

#include <ostream>
#include <string>

#include "client/master_client.h"
#include "common/status.h"
#include "experiment/experiment.h"
#include "model/makespan/batch_plan.h"

namespace mr::cli {

struct BatchRunOptions {
  std::string plan_file;
  // johnson, reverse-johnson, fifo or balancedpools; "" = balancedpools.
  std::string schedule;
  std::string output_dir;  // absolute: job NAME writes OUTPUT_DIR/NAME
  experiment::WorkMode work = experiment::WorkMode::kBurn;
  double slow_start = 0.05;
  // Live seconds per second of the plan (a plan of the paper's workloads is in its time
  // unit: docs/makespan.md); the prediction is scaled the same.
  double time_scale = 1;
  double poll_seconds = 0.2;
};

// The order and the queue of each job of `plan` under `schedule` (a BalancedPools plan with
// one pool: Johnson's order, no queue). InvalidArgument for an unknown schedule.
struct BatchSubmission {
  int job = 0;        // index into plan.jobs
  std::string queue;  // "" = none
};
Result<std::vector<BatchSubmission>> BatchSchedule(const model::BatchPlan& plan, const std::string& schedule);

// The plan read, the cluster's shape asked of the master (its workers and their map and
// reduce slots) and checked, the jobs submitted and waited for. Errors: InvalidArgument (a
// bad plan file or schedule, another cluster shape, two pools without the capacity policy;
// nothing submitted), the master's errors, Internal when a job failed.
Status RunBatchPlanLive(const BatchRunOptions& options, client::MasterClient& client, std::ostream& out);

}  // namespace mr::cli
