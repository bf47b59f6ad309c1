#include "experiment/predict_command.h"

#include "experiment/cluster_shape.h"
#include "experiment/experiment_file.h"
#include <sstream>

#include "common/file_util.h"
#include "experiment/replay_prediction.h"
#include "experiment/replay_schedule.h"
#include "experiment/trace_replay.h"

namespace mr::experiment {
namespace {

// --shuffle-bandwidth measured: MeasuredShuffleRate of the run.
Result<double> MeasuredBandwidth(const RecordedRun& run) {
  const double rate = MeasuredShuffleRate(run);
  if (!(rate > 0)) {
    return Status::InvalidArgument(
        "--shuffle-bandwidth measured: the traces have no successful fetch with bytes; give a rate");
  }
  return rate;
}

// The cap every worker gets from the options, resolved against the run; nullopt: none given.
Result<std::optional<double>> Bandwidth(const PredictOptions& o, const RecordedRun& run) {
  if (!o.measured_bandwidth) return o.shuffle_bandwidth;
  MR_ASSIGN_OR_RETURN(double rate, MeasuredBandwidth(run));
  return std::optional<double>(rate);
}

// The simulated cluster: the experiment file's shape (every worker's cap replaced when a
// bandwidth is given) or the options' own.
Result<model::ClusterSpec> ResolveCluster(const PredictOptions& o, const RecordedRun& run) {
  model::ClusterSpec cluster = o.cluster;
  if (o.cluster_from.empty()) {
    MR_ASSIGN_OR_RETURN(std::optional<double> rate, Bandwidth(o, run));
    if (!rate) return Status::InvalidArgument("--shuffle-bandwidth is required without --cluster-from");
    cluster.shuffle_bandwidth = *rate;
    return cluster;
  }
  MR_ASSIGN_OR_RETURN(Experiment e, LoadExperimentFile(o.cluster_from));
  MR_ASSIGN_OR_RETURN(std::optional<double> rate, Bandwidth(o, run));
  if (rate) {
    for (WorkerGroup& g : e.cluster.groups) g.shuffle_bandwidth = *rate;
  }
  Result<model::ClusterSpec> shape = ToClusterSpec(e.cluster);
  if (!shape.ok()) return shape.status().WithContext(o.cluster_from + " (give --shuffle-bandwidth)");
  if (!o.slow_start_given) cluster.slow_start = shape->slow_start;
  cluster.workers = shape->workers;
  cluster.worker_specs = shape->worker_specs;
  cluster.receiver_links = shape->receiver_links;
  return cluster;
}

}  // namespace

Status RunPredictCommand(const PredictOptions& o, std::ostream& out) {
  MR_ASSIGN_OR_RETURN(RecordedRun run, ReadRecordedRun(o.traces));
  if (!(o.jitter >= 0)) return Status::InvalidArgument("--jitter must be >= 0 seconds");
  JitterDurations(o.jitter, o.jitter_seed, &run);
  MR_ASSIGN_OR_RETURN(model::ClusterSpec cluster, ResolveCluster(o, run));
  cluster.record_schedule = !o.schedule_out.empty();
  MR_ASSIGN_OR_RETURN(Prediction prediction, PredictRun(run, o.policy, o.policy_options, cluster, o.placement));
  WritePrediction(run, prediction, out);
  if (!o.schedule_out.empty()) {
    std::ostringstream schedule;
    WriteSchedule(run, prediction, schedule);
    MR_RETURN_IF_ERROR(WriteStringToFile(o.schedule_out, schedule.str()).WithContext("--schedule-out"));
  }
  if (o.measured_bandwidth) {
    out << "# shuffle_bandwidth measured from the fetches of " << run.links.size() << " source workers\n";
  }
  return Status::Ok();
}

}  // namespace mr::experiment
