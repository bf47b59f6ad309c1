#include "experiment/predict_command.h"

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "common/units.h"
#include "experiment/cluster_shape.h"
#include "experiment/experiment_file.h"
#include "experiment/replay_prediction.h"
#include "experiment/trace_replay.h"
#include "scheduler/placement_program_options.h"
#include "scheduler/policy_flags.h"
#include "scheduler/policy_program_options.h"
#include "scheduler/policy_table.h"

namespace mr::experiment {
namespace {

namespace po = boost::program_options;

int Fail(const Status& s) {
  std::fprintf(stderr, "mr model predict: %s\n", s.message().c_str());
  return s.code() == StatusCode::kInvalidArgument || s.code() == StatusCode::kNotFound ? 2 : 1;
}

// --shuffle-bandwidth: a rate ("20MB/s") or "measured" (MeasuredShuffleRate of the run).
Result<double> ResolveBandwidth(const std::string& text, const RecordedRun& run) {
  if (text == "measured") {
    const double rate = MeasuredShuffleRate(run);
    if (!(rate > 0)) {
      return Status::InvalidArgument(
          "--shuffle-bandwidth measured: the traces have no successful fetch with bytes; give a rate");
    }
    return rate;
  }
  Result<double> rate = ParseRate(text);
  if (!rate.ok()) return rate.status().WithContext("--shuffle-bandwidth");
  if (!(*rate > 0)) return Status::InvalidArgument("--shuffle-bandwidth must be > 0 (no unlimited links)");
  return rate;
}

// What the flags said, before the traces are read.
struct PredictFlags {
  std::vector<std::string> traces;
  std::string policy, bandwidth, cluster_from;
  model::ClusterSpec cluster;  // from --workers, --map-slots, ... (not --cluster-from)
};

po::options_description PredictOptions(PredictFlags& f) {
  po::options_description desc(
      "mr model predict --trace DIR|FILE... --policy P\n"
      "                 (--workers N --map-slots M --reduce-slots R --shuffle-bandwidth RATE|measured\n"
      "                  | --cluster-from EXPERIMENT.yaml [--shuffle-bandwidth RATE|measured]) [options]\n"
      "Replays a recorded run (its arrivals, measured task durations and bytes) through the\n"
      "task-level simulator under a live policy. Under the policy that ran: per-job error;\n"
      "under another: a what-if");
  desc.add_options()("help,h", "this help")
      ("trace", po::value(&f.traces)->multitoken()->required(),
       "trace files, or directories of *.jsonl traces (a master's STATE dir or STATE/traces)")
      ("policy", po::value(&f.policy)->required(), sched::PolicyNameList("|").c_str())
      ("cluster-from", po::value(&f.cluster_from),
       "the recorded cluster's shape from an experiment file's cluster section")
      ("workers", po::value(&f.cluster.workers), "number of workers of the recorded cluster")
      ("map-slots", po::value(&f.cluster.map_slots), "map slots per worker")
      ("reduce-slots", po::value(&f.cluster.reduce_slots), "reduce slots per worker")
      ("unified-slots", po::value(&f.cluster.unified_slots)->default_value(0), "unified slots per worker")
      ("shuffle-bandwidth", po::value(&f.bandwidth),
       "egress cap per worker (20MB/s), or 'measured': fitted from the traces' fetches; with "
       "--cluster-from it replaces every worker's cap")
      ("slow-start", po::value(&f.cluster.slow_start)->default_value(0.05, "0.05"),
       "fraction of maps done before reducers start (the jobs' --slow-start; with --cluster-from "
       "the file's unless given)")
      ("decision-latency", po::value(&f.cluster.decision_latency)->default_value(0),
       "seconds from an event to the scheduling round that reacts to it");
  sched::AddPolicyOptionFlags(desc);
  sched::AddPlacementFlags(desc);  // the run's --placement: replayed with the same stage
  return desc;
}

// The simulated cluster: the flags' or the experiment file's shape, with the link rate
// resolved against the run.
Result<model::ClusterSpec> ResolveCluster(const PredictFlags& f, const po::variables_map& vm,
                                          const RecordedRun& run) {
  model::ClusterSpec cluster = f.cluster;
  if (!f.cluster_from.empty()) {
    for (const char* flag : {"workers", "map-slots", "reduce-slots", "unified-slots"}) {
      if (vm.count(flag) && !vm[flag].defaulted())
        return Status::InvalidArgument(std::string("give --cluster-from or --") + flag + ", not both");
    }
    MR_ASSIGN_OR_RETURN(Experiment e, LoadExperimentFile(f.cluster_from));
    if (!f.bandwidth.empty()) {
      MR_ASSIGN_OR_RETURN(double rate, ResolveBandwidth(f.bandwidth, run));
      for (WorkerGroup& g : e.cluster.groups) g.shuffle_bandwidth = rate;
    }
    Result<model::ClusterSpec> shape = ToClusterSpec(e.cluster);
    if (!shape.ok()) return shape.status().WithContext(f.cluster_from + " (give --shuffle-bandwidth)");
    if (vm["slow-start"].defaulted()) cluster.slow_start = shape->slow_start;
    cluster.workers = shape->workers;
    cluster.worker_specs = shape->worker_specs;
    return cluster;
  }
  for (const char* flag : {"workers", "map-slots", "reduce-slots", "shuffle-bandwidth"}) {
    if (!vm.count(flag)) return Status::InvalidArgument(std::string("--") + flag + " is required without --cluster-from");
  }
  MR_ASSIGN_OR_RETURN(cluster.shuffle_bandwidth, ResolveBandwidth(f.bandwidth, run));
  return cluster;
}

}  // namespace

int PredictMain(int argc, char** argv) {
  PredictFlags f;
  po::options_description desc = PredictOptions(f);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(std::vector<std::string>(argv + 1, argv + argc)).options(desc).run(), vm);
    if (vm.count("help")) {
      std::cout << desc;
      return 0;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::fprintf(stderr, "mr model predict: %s\n", e.what());
    return 2;
  }
  Result<sched::PolicyOptions> options = sched::PolicyOptionsFromFlags(f.policy, sched::GivenPolicyFlags(vm));
  if (!options.ok()) return Fail(options.status());
  Result<RecordedRun> run = ReadRecordedRun(f.traces);
  if (!run.ok()) return Fail(run.status());
  Result<model::ClusterSpec> cluster = ResolveCluster(f, vm, *run);
  if (!cluster.ok()) return Fail(cluster.status());
  Result<sched::PlacementConfig> placement = sched::PlacementConfigFromVm(vm);
  if (!placement.ok()) return Fail(placement.status());
  Result<Prediction> prediction = PredictRun(*run, f.policy, *options, *cluster, *placement);
  if (!prediction.ok()) return Fail(prediction.status());
  WritePrediction(*run, *prediction, std::cout);
  if (f.bandwidth == "measured") {
    std::printf("# shuffle_bandwidth measured from the fetches of %zu source workers\n", run->links.size());
  }
  return 0;
}

}  // namespace mr::experiment
