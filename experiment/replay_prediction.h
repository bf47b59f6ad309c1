// A recorded run (trace_replay.h) replayed through the task-level simulator under a live
// policy — the same policy object the master runs (sched::CreateScheduler) — and compared
// with what the run measured. Under the policy that ran it is a prediction with a per-job
// error; under another it is a what-if ("had this run been under maxsrpt"): the predicted
// outcome, with nothing measured to hold it against. `mr model predict` prints it
// (docs/model.md, "Replaying a recorded run"). Pure functions; thread-safe.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "common/status.h"
#include "experiment/trace_replay.h"
#include "model/tasksim/task_sim.h"
#include "scheduler/stages/map_placement.h"
#include "scheduler/policy_options.h"

namespace mr::experiment {

struct Prediction {
  std::string policy;     // the policy simulated
  bool what_if = false;   // policy differs from the one the run recorded
  model::ClusterSpec cluster;  // as simulated
  model::TaskSimResult sim;    // per job in RecordedRun::jobs order
  // Per job (predicted - measured) / measured response; empty for a what-if.
  std::vector<double> error;
  // Of |error|: the median and the 90th percentile (common/stats.h QuantileLinear, the
  // same definition as `mr experiment`'s summary). 0 for a what-if.
  double abs_error_median = 0;
  double abs_error_p90 = 0;
  double measured_mean = 0;  // mean measured response
  // Measured makespan: last job end after the first submit (replayed jobs only); the
  // predicted one is sim.makespan on the same clock. makespan_error is relative.
  double measured_makespan = 0;
  double makespan_error = 0;
};

// Replays `run` on `cluster` under `policy` with `options`. NotFound / InvalidArgument for
// an unknown policy, bad options, an empty run or a cluster the simulator refuses
// (shuffle_bandwidth must be > 0: resolve "measured" with MeasuredShuffleRate first);
// Internal when the policy makes an invalid decision. `placement`: the map placement the
// run had (--placement; pull by default), applied in the simulator as in the master.
Result<Prediction> PredictRun(const RecordedRun& run, const std::string& policy,
                              const sched::PolicyOptions& options, const model::ClusterSpec& cluster,
                              const sched::PlacementConfig& placement = {},
                              const sched::Speculator* speculator = nullptr);

// The per-job CSV — job,name,arrival,maps,reducers,measured,predicted,error,shuffle_done
// (measured and predicted response times; error empty for a what-if; shuffle_done measured: submit to the last fetch) —
// then '#' summary lines: the mode, means, error quantiles, makespans, the cluster, the
// attempts not replayed and every excluded job with its reason.
void WritePrediction(const RecordedRun& run, const Prediction& p, std::ostream& out);

}  // namespace mr::experiment
