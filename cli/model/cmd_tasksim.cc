// `mr model tasksim`: a live scheduler policy on the task-level simulator. The flags fill
// model::TaskSimOptions (model/model_commands.h); the work is there.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/model/model_flags.h"
#include "cli/scheduler_flags.h"
#include "common/units.h"
#include "model/model_commands.h"
#include "model/tasksim/map_time.h"
#include "scheduler/policy_flags.h"
#include "scheduler/policy_table.h"

namespace mr::cli {
namespace {

// The chosen policy's options from the flags the user gave; tasksim's older --k stands for
// --klps-k, which wins when both are given.
Result<sched::PolicyOptions> PolicyOptionsFromArgs(const po::variables_map& vm, const std::string& policy) {
  std::map<std::string, std::string, std::less<>> given = GivenPolicyFlags(vm);
  if (vm.count("k") && !given.count("klps-k")) given["klps-k"] = vm["k"].as<std::string>();
  return sched::PolicyOptionsFromFlags(policy, given);
}

// "1,1,0.5": comma-separated finite speeds > 0.
Result<std::vector<double>> ParseSpeeds(const std::string& text) {
  std::vector<double> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = std::min(text.find(',', pos), text.size());
    const std::string field = text.substr(pos, comma - pos);
    char* end = nullptr;
    double v = field.empty() ? 0 : std::strtod(field.c_str(), &end);
    if (field.empty() || end != field.c_str() + field.size() || !std::isfinite(v) || !(v > 0))
      return Status::InvalidArgument("expected comma-separated speeds > 0, got '" + text + "'");
    out.push_back(v);
    pos = comma + 1;
  }
  return out;
}

// The text flags that need parsing after the command line.
struct TaskSimText {
  std::string bandwidth, speeds, map_time;
};

po::options_description TaskSimFlags(model::TaskSimOptions& o, TaskSimText& t) {
  po::options_description desc(
      "mr model tasksim --workload FILE --policy P --workers N --map-slots M --reduce-slots R\n"
      "                 --shuffle-bandwidth BYTES_PER_S [options]\n"
      "Runs the live scheduler policy on a task-level simulation of the cluster");
  desc.add_options()("help,h", "this help")
      ("workload", po::value(&o.workload)->required(), "CSV arrival,x,y or bench/policies JSON")
      ("policy", po::value(&o.policy)->required(), sched::PolicyNameList("|").c_str())
      ("workers", po::value(&o.cluster.workers)->required(), "number of workers")
      ("map-slots", po::value(&o.cluster.map_slots)->required(), "map slots per worker")
      ("reduce-slots", po::value(&o.cluster.reduce_slots)->required(), "reduce slots per worker")
      ("shuffle-bandwidth", po::value(&t.bandwidth)->required(), "egress cap per worker: 20MB/s")
      ("unified-slots", po::value(&o.cluster.unified_slots)->default_value(0),
       "unified slots per worker (a map or a reduce; --map-slots/--reduce-slots may then be 0)")
      ("speeds", po::value(&t.speeds), "per-worker speeds, one per worker: 1,1,0.5 (default all 1)")
      ("map-time", po::value(&t.map_time),
       "every job's map-time law, a factor times its map time: fixed | lognormal:CV | "
       "exp:T,DELTA (T + Exp(DELTA), mean T+1/DELTA) | pareto:T,ALPHA (min T, mean "
       "ALPHA*T/(ALPHA-1)); replaces --map-time-cv")
      ("failure-prob", po::value(&o.cluster.failure_prob)->default_value(0),
       "probability that a task attempt fails (then retried, up to --max-attempts)")
      ("failure-point", po::value(&o.cluster.failure_point)->default_value(0.5),
       "fraction of its duration a failing attempt runs")
      ("max-attempts", po::value(&o.cluster.max_attempts)->default_value(4),
       "a task's failures that fail its job")
      ("idle-rounds", po::bool_switch(&o.cluster.idle_rounds),
       "also offer rounds to idle workers while an attempt runs without a backup")
      ("speculate", po::bool_switch(&o.speculate),
       "back up slow maps by LATE after each round, as the master does (docs/speculation.md)")
      ("per-worker", po::bool_switch(&o.per_worker),
       "also a '# worker=' line per worker: its successful maps, their busy and response seconds")
      ("maps-per-job", po::value(&o.shape.maps_per_job)->default_value(0),
       "maps per job of a CSV workload (0 = one per map slot)")
      ("reducers", po::value(&o.shape.reducers)->default_value(1), "reducers per job (CSV)")
      ("reduce-seconds", po::value(&o.shape.reduce_seconds)->default_value(0), "per reduce task")
      ("slow-start", po::value(&o.cluster.slow_start)->default_value(0.05, "0.05"),
       "fraction of maps done before reducers start")
      ("decision-latency", po::value(&o.cluster.decision_latency)->default_value(0),
       "seconds from an event to the scheduling round that reacts to it")
      ("refresh-rounds", po::value(&o.cluster.refresh_rounds)->default_value(0),
       "a round whenever this many seconds pass without one (the master's share refresh, 0.1; "
       "0 = rounds only at events)")
      ("map-time-cv", po::value(&o.cluster.map_time_cv)->default_value(0),
       "coefficient of variation of map durations (log-normal, mean = the job's)")
      ("seed", po::value(&o.cluster.seed)->default_value(1), "seed of the map duration noise")
      ("no-hints", "give the policy no size hints (it probes, then estimates online)")
      ("k", po::value<std::string>(), "k of klps (the same as --klps-k)");
  AddPolicyOptionFlags(desc);
  AddPlacementFlags(desc);
  return desc;
}

// The options the parser cannot check alone; InvalidArgument / NotFound names the flag.
Status ApplyTaskSimFlags(const po::variables_map& vm, const TaskSimText& t, model::TaskSimOptions& o) {
  Result<sched::PolicyOptions> policy_options = PolicyOptionsFromArgs(vm, o.policy);
  if (!policy_options.ok()) return policy_options.status();
  o.policy_options = std::move(*policy_options);
  Result<sched::PlacementConfig> placement_config = PlacementConfigFromVm(vm);
  if (!placement_config.ok()) return placement_config.status();
  o.placement = std::move(*placement_config);
  o.shape.hints = vm.count("no-hints") == 0;
  Result<double> rate = ParseRate(t.bandwidth);
  if (!rate.ok()) return rate.status().WithContext("--shuffle-bandwidth");
  if (*rate <= 0) {
    return Status::InvalidArgument("--shuffle-bandwidth must be > 0 (no unlimited links)");
  }
  o.cluster.shuffle_bandwidth = *rate;
  if (vm.count("speeds")) {
    Result<std::vector<double>> list = ParseSpeeds(t.speeds);
    if (!list.ok()) return list.status().WithContext("--speeds");
    o.cluster.speeds = *std::move(list);
  }
  if (vm.count("map-time")) {
    if (o.cluster.map_time_cv > 0)
      return Status::InvalidArgument("give --map-time or --map-time-cv, not both");
    Result<model::MapTimeDist> law = model::ParseMapTimeDist(t.map_time);
    if (!law.ok()) return law.status().WithContext("--map-time");
    o.map_time = *law;
  }
  if (o.shape.maps_per_job < 0 || o.shape.reducers < 1 || !(o.shape.reduce_seconds >= 0)) {
    return Status::InvalidArgument(
        "need --maps-per-job >= 0, --reducers >= 1, --reduce-seconds >= 0");
  }
  return Status::Ok();
}

}  // namespace

int ModelTaskSimMain(const Args& args) {
  model::TaskSimOptions o;
  TaskSimText t;
  po::options_description desc = TaskSimFlags(o, t);
  po::variables_map vm;
  if (auto rc = ParseModelFlags(args, desc, vm)) return *rc;
  if (Status st = ApplyTaskSimFlags(vm, t, o); !st.ok()) return BadModelFlag(args, st);
  return ModelExit(args, model::RunTaskSimCommand(o, std::cout));
}

}  // namespace mr::cli
