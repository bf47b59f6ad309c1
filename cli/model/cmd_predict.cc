// `mr model predict`: the flags of experiment::PredictOptions (experiment/predict_command.h),
// whose work replays a recorded run under a policy.
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/model/model_flags.h"
#include "cli/scheduler_flags.h"
#include "common/units.h"
#include "experiment/predict_command.h"
#include "scheduler/policy_flags.h"
#include "scheduler/policy_table.h"

namespace mr::cli {
namespace {

constexpr char kPredictPrefix[] = "mr model predict";

po::options_description PredictFlags(experiment::PredictOptions& o, std::string& bandwidth) {
  po::options_description desc(
      "mr model predict --trace DIR|FILE... --policy P\n"
      "                 (--workers N --map-slots M --reduce-slots R --shuffle-bandwidth RATE|measured\n"
      "                  | --cluster-from EXPERIMENT.yaml [--shuffle-bandwidth RATE|measured]) [options]\n"
      "Replays a recorded run (its arrivals, measured task durations and bytes) through the\n"
      "task-level simulator under a live policy. Under the policy that ran: per-job error;\n"
      "under another: a what-if");
  desc.add_options()("help,h", "this help")
      ("trace", po::value(&o.traces)->multitoken()->required(),
       "trace files, or directories of *.jsonl traces (a master's STATE dir or STATE/traces)")
      ("policy", po::value(&o.policy)->required(), sched::PolicyNameList("|").c_str())
      ("cluster-from", po::value(&o.cluster_from),
       "the recorded cluster's shape from an experiment file's cluster section")
      ("workers", po::value(&o.cluster.workers), "number of workers of the recorded cluster")
      ("map-slots", po::value(&o.cluster.map_slots), "map slots per worker")
      ("reduce-slots", po::value(&o.cluster.reduce_slots), "reduce slots per worker")
      ("unified-slots", po::value(&o.cluster.unified_slots)->default_value(0), "unified slots per worker")
      ("shuffle-bandwidth", po::value(&bandwidth),
       "egress cap per worker (20MB/s), or 'measured': fitted from the traces' fetches; with "
       "--cluster-from it replaces every worker's cap")
      ("slow-start", po::value(&o.cluster.slow_start)->default_value(0.05, "0.05"),
       "fraction of maps done before reducers start (the jobs' --slow-start; with --cluster-from "
       "the file's unless given)")
      ("decision-latency", po::value(&o.cluster.decision_latency)->default_value(0),
       "seconds from an event to the scheduling round that reacts to it; the replay uses at least "
       "the traces' measured slot turnover")
      ("refresh-rounds", po::value(&o.cluster.refresh_rounds)->default_value(0.1, "0.1"),
       "seconds without a round after which the master runs one anyway (its share refresh; 0 = "
       "rounds only at events)")
      ("reduce-ready-delay", po::value(&o.cluster.reduce_ready_delay)->default_value(0),
       "seconds from a reducer's placement to the earliest moment it can be ready (live: its "
       "worker's next heartbeat and READY report); the replay uses at least the traces' measured "
       "delay")
      ("jitter", po::value(&o.jitter)->default_value(0),
       "move every recorded task duration by a uniform draw on (-S, S) seconds: the replay's own "
       "sensitivity to timing (bench/asrpt/replay_band.py)")
      ("jitter-seed", po::value(&o.jitter_seed)->default_value(1), "the seed of --jitter's draws")
      ("schedule-out", po::value(&o.schedule_out),
       "write the replay's schedule to FILE: one JSON line per attempt start and end, in the "
       "trace's style and clock, to diff against the run's attempt_start / attempt_end");
  AddPolicyOptionFlags(desc);
  AddPlacementFlags(desc);  // the run's --placement: replayed with the same stage
  return desc;
}

// The cluster's flags: --cluster-from excludes the shape flags; without it they are needed.
Status CheckClusterFlags(const experiment::PredictOptions& o, const po::variables_map& vm) {
  if (!o.cluster_from.empty()) {
    for (const char* flag : {"workers", "map-slots", "reduce-slots", "unified-slots"}) {
      if (vm.count(flag) && !vm[flag].defaulted())
        return Status::InvalidArgument(std::string("give --cluster-from or --") + flag + ", not both");
    }
    return Status::Ok();
  }
  for (const char* flag : {"workers", "map-slots", "reduce-slots", "shuffle-bandwidth"}) {
    if (!vm.count(flag)) return Status::InvalidArgument(std::string("--") + flag + " is required without --cluster-from");
  }
  return Status::Ok();
}

// --shuffle-bandwidth: a rate ("20MB/s") or "measured" (resolved against the run).
Status ParseBandwidth(const std::string& text, experiment::PredictOptions& o) {
  if (text.empty()) return Status::Ok();
  if (text == "measured") {
    o.measured_bandwidth = true;
    return Status::Ok();
  }
  Result<double> rate = ParseRate(text);
  if (!rate.ok()) return rate.status().WithContext("--shuffle-bandwidth");
  if (!(*rate > 0)) return Status::InvalidArgument("--shuffle-bandwidth must be > 0 (no unlimited links)");
  o.shuffle_bandwidth = *rate;
  return Status::Ok();
}

}  // namespace

int ModelPredictMain(const Args& args) {
  experiment::PredictOptions o;
  std::string bandwidth;
  po::options_description desc = PredictFlags(o, bandwidth);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, CaptionedOptions(kPredictPrefix))) return *rc;
  Result<sched::PolicyOptions> options = sched::PolicyOptionsFromFlags(o.policy, GivenPolicyFlags(vm));
  if (!options.ok()) return Fail(kPredictPrefix, options.status());
  o.policy_options = *std::move(options);
  Result<sched::PlacementConfig> placement = PlacementConfigFromVm(vm);
  if (!placement.ok()) return Fail(kPredictPrefix, placement.status());
  o.placement = *std::move(placement);
  o.slow_start_given = !vm["slow-start"].defaulted();
  if (Status st = CheckClusterFlags(o, vm); !st.ok()) return Fail(kPredictPrefix, st);
  if (Status st = ParseBandwidth(bandwidth, o); !st.ok()) return Fail(kPredictPrefix, st);
  Status st = experiment::RunPredictCommand(o, std::cout);
  return st.ok() ? kExitOk : Fail(kPredictPrefix, st);
}

}  // namespace mr::cli
