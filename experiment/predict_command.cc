#include "experiment/predict_command.h"

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "common/units.h"
#include "experiment/replay_prediction.h"
#include "experiment/trace_replay.h"
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

}  // namespace

int PredictMain(int argc, char** argv) {
  po::options_description desc(
      "mr model predict --trace DIR|FILE... --policy P --workers N --map-slots M --reduce-slots R\n"
      "                 --shuffle-bandwidth RATE|measured [options]\n"
      "Replays a recorded run (its arrivals, measured task durations and bytes) through the\n"
      "task-level simulator under a live policy. Under the policy that ran: per-job error;\n"
      "under another: a what-if");
  std::vector<std::string> traces;
  std::string policy, bandwidth;
  model::ClusterSpec cluster;
  desc.add_options()("help,h", "this help")
      ("trace", po::value(&traces)->multitoken()->required(),
       "trace files, or directories of *.jsonl traces (a master's STATE dir or STATE/traces)")
      ("policy", po::value(&policy)->required(), sched::PolicyNameList("|").c_str())
      ("workers", po::value(&cluster.workers)->required(), "number of workers of the recorded cluster")
      ("map-slots", po::value(&cluster.map_slots)->required(), "map slots per worker")
      ("reduce-slots", po::value(&cluster.reduce_slots)->required(), "reduce slots per worker")
      ("unified-slots", po::value(&cluster.unified_slots)->default_value(0), "unified slots per worker")
      ("shuffle-bandwidth", po::value(&bandwidth)->required(),
       "egress cap per worker (20MB/s), or 'measured': fitted from the traces' fetches")
      ("slow-start", po::value(&cluster.slow_start)->default_value(0.05, "0.05"),
       "fraction of maps done before reducers start (the jobs' --slow-start)")
      ("decision-latency", po::value(&cluster.decision_latency)->default_value(0),
       "seconds from an event to the scheduling round that reacts to it");
  sched::AddPolicyOptionFlags(desc);
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
  Result<sched::PolicyOptions> options = sched::PolicyOptionsFromFlags(policy, sched::GivenPolicyFlags(vm));
  if (!options.ok()) return Fail(options.status());
  Result<RecordedRun> run = ReadRecordedRun(traces);
  if (!run.ok()) return Fail(run.status());
  Result<double> rate = ResolveBandwidth(bandwidth, *run);
  if (!rate.ok()) return Fail(rate.status());
  cluster.shuffle_bandwidth = *rate;
  Result<Prediction> prediction = PredictRun(*run, policy, *options, cluster);
  if (!prediction.ok()) return Fail(prediction.status());
  WritePrediction(*run, *prediction, std::cout);
  if (bandwidth == "measured") {
    std::printf("# shuffle_bandwidth measured from the fetches of %zu source workers\n", run->links.size());
  }
  return 0;
}

}  // namespace mr::experiment
