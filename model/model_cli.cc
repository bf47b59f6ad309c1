#include "model/model_cli.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "common/units.h"
#include "model/cli_args.h"
#include "model/fluid/lower_bound.h"
#include "model/tasksim/map_time.h"
#include "model/model_commands.h"
#include "model/mst_cli.h"
#include "model/slotted_cli.h"
#include "model/fluid/tandem_policy.h"
#include "model/tasksim/task_workload.h"
#include "model/fluid/workload.h"
#include "scheduler/placement_program_options.h"
#include "scheduler/policy_flags.h"
#include "scheduler/policy_program_options.h"
#include "scheduler/policy_table.h"

namespace mr::model {
namespace {

namespace po = boost::program_options;

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>& args);
};

// The chosen policy's options from the flags the user gave; tasksim's older --k stands for
// --klps-k, which wins when both are given.
Result<sched::PolicyOptions> PolicyOptionsFromArgs(const po::variables_map& vm, const std::string& policy) {
  std::map<std::string, std::string, std::less<>> given = sched::GivenPolicyFlags(vm);
  if (vm.count("k") && !given.count("klps-k")) given["klps-k"] = vm["k"].as<std::string>();
  return sched::PolicyOptionsFromFlags(policy, given);
}

// The tandem model's jobs from FILE: the fluid CSV as it is, or a task-level workload
// (bench/policies JSON, as `tasksim` reads) expressed in fluid sizes on the cluster the flags
// describe (FluidSizes: x = slot-seconds / map capacity, y = bytes / shuffle capacity).
Result<std::vector<TandemJob>> LoadTandemJobs(const std::string& path, const po::variables_map& vm) {
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || text[first] != '{') return LoadWorkload(path);
  if (!vm.count("workers") || !vm.count("map-slots") || !vm.count("shuffle-bandwidth")) {
    return Status::InvalidArgument(
        path + " is a task-level workload (JSON, as tasksim reads); give the cluster its sizes are for, "
               "--workers N --map-slots M --shuffle-bandwidth RATE [--unified-slots U], to express "
               "them as the fluid model's x and y");
  }
  ClusterSpec cluster;
  cluster.workers = vm["workers"].as<int>();
  cluster.map_slots = vm["map-slots"].as<int>();
  cluster.unified_slots = vm["unified-slots"].as<int>();
  Result<double> rate = ParseRate(vm["shuffle-bandwidth"].as<std::string>());
  if (!rate.ok()) return rate.status().WithContext("--shuffle-bandwidth");
  if (cluster.workers < 1 || cluster.map_slots + cluster.unified_slots < 1 || !(*rate > 0)) {
    return Status::InvalidArgument(
        "--workers >= 1, --map-slots + --unified-slots >= 1 and --shuffle-bandwidth > 0 are needed");
  }
  cluster.shuffle_bandwidth = *rate;
  MR_ASSIGN_OR_RETURN(std::vector<TaskJob> tasks, LoadTaskWorkload(path, cluster, TaskShape{}));
  std::vector<TandemJob> jobs;
  for (const TaskJob& t : tasks) jobs.push_back(FluidSizes(t, cluster));
  return jobs;
}

int RunTandem(const std::vector<std::string>& args) {
  po::options_description desc(
      "mr model tandem --workload FILE --policy P [--k K]\n"
      "                [--workers N --map-slots M --shuffle-bandwidth RATE]  (a JSON workload)");
  std::string path, policy_name;
  int k = 100;
  desc.add_options()("help,h", "this help")
      ("workload", po::value(&path)->required(),
       "CSV file arrival,x,y (fluid sizes), or a task-level JSON workload (as tasksim's) with the cluster flags")
      ("policy", po::value(&policy_name)->required(), "fifo|ps|klps|maxsrpt|splitsrpt")
      ("k", po::value(&k)->default_value(100), "k of klps")
      ("workers", po::value<int>(), "JSON workload: workers of the cluster its sizes are for")
      ("map-slots", po::value<int>(), "JSON workload: map slots per worker")
      ("unified-slots", po::value<int>()->default_value(0), "JSON workload: unified slots per worker")
      ("shuffle-bandwidth", po::value<std::string>(), "JSON workload: egress cap per worker, e.g. 20MB/s");
  po::variables_map vm;
  int code = 0;
  if (!ParseModelArgs(args, desc, vm, code)) return code;
  Result<std::unique_ptr<TandemPolicy>> policy = MakeTandemPolicy(policy_name, k);
  if (!policy.ok()) return Fail(policy.status());
  Result<std::vector<TandemJob>> jobs = LoadTandemJobs(path, vm);
  if (!jobs.ok()) return Fail(jobs.status());
  Result<SimResult> sim = SimulateTandem(*jobs, **policy);
  if (!sim.ok()) return Fail(sim.status(), ExitCodeFor(sim.status()));
  Result<LowerBound> lb = TandemLowerBound(*jobs);
  if (!lb.ok()) return Fail(lb.status(), ExitCodeFor(lb.status()));
  std::printf("job,arrival,x,y,completion,response\n");
  for (size_t i = 0; i < jobs->size(); ++i) {
    const TandemJob& j = (*jobs)[i];
    std::printf("%zu,%.6g,%.6g,%.6g,%.6g,%.6g\n", i, j.arrival, j.x, j.y, sim->completion[i],
                sim->response[i]);
  }
  std::printf("# policy=%s jobs=%zu mean_response=%.6g lower_bound_mean=%.6g ratio=%.4f\n",
              policy_name.c_str(), jobs->size(), sim->mean_response, lb->mean_response,
              lb->mean_response > 0 ? sim->mean_response / lb->mean_response : 0.0);
  return 0;
}

int RunGen(const std::vector<std::string>& args) {
  po::options_description desc("mr model gen --jobs N --load RHO --seed S [--rebalanced] --out FILE");
  GoogleLikeOptions o;
  std::string out, kind = "google";
  desc.add_options()("help,h", "this help")
      ("jobs", po::value(&o.jobs)->required(), "number of jobs")
      ("load", po::value(&o.load)->required(), "average load rho in (0, 10]")
      ("seed", po::value(&o.seed)->default_value(1), "random seed")
      ("rebalanced", po::bool_switch(&o.rebalanced), "cube-root rebalanced sizes (paper 5.2)")
      ("kind", po::value(&kind)->default_value("google"), "google | lognormal | poisson")
      ("out", po::value(&out)->required(), "output CSV file");
  po::variables_map vm;
  int code = 0;
  if (!ParseModelArgs(args, desc, vm, code)) return code;
  Result<std::vector<TandemJob>> jobs = GenerateByKind(kind, o);
  if (!jobs.ok()) return Fail(jobs.status());
  Status st = SaveWorkload(out, *jobs);
  if (!st.ok()) return Fail(st);
  std::printf("wrote %s: %s\n", out.c_str(), FormatStats(ComputeStats(*jobs)).c_str());
  return 0;
}

int RunSweep(const std::vector<std::string>& args) {
  po::options_description desc("mr model sweep [--jobs N] [--seed S] [--loads L,..] [--csv]");
  SweepOptions o;
  std::string loads = "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.75", policies = "klps,maxsrpt,splitsrpt,fifo,ps",
              variants = "original,rebalanced";
  desc.add_options()("help,h", "this help")
      ("jobs", po::value(&o.jobs)->default_value(20000), "jobs per workload")
      ("seed", po::value(&o.seed)->default_value(1), "random seed")
      ("loads", po::value(&loads)->default_value(loads), "comma-separated loads")
      ("policies", po::value(&policies)->default_value(policies), "comma-separated policies")
      ("variants", po::value(&variants)->default_value(variants), "original,rebalanced")
      ("k", po::value(&o.k)->default_value(100), "k of klps")
      ("csv", po::bool_switch(&o.csv), "CSV instead of a table");
  po::variables_map vm;
  int code = 0;
  if (!ParseModelArgs(args, desc, vm, code)) return code;
  Status st = ParseSweepLists(loads, policies, variants, o.lists);
  if (!st.ok()) return Fail(st);
  st = RunSweepCommand(o, std::cout);
  return st.ok() ? 0 : Fail(st, ExitCodeFor(st));
}

int RunSlowdown(const std::vector<std::string>& args) {
  po::options_description desc("mr model slowdown [--load RHO] [--jobs N] [--buckets B]");
  SlowdownOptions o;
  std::string policies = "klps,maxsrpt,splitsrpt";
  desc.add_options()("help,h", "this help")
      ("load", po::value(&o.load)->default_value(0.75), "load rho")
      ("jobs", po::value(&o.jobs)->default_value(200000), "jobs (Poisson, log-normal sizes)")
      ("seed", po::value(&o.seed)->default_value(1), "random seed")
      ("buckets", po::value(&o.buckets)->default_value(20), "log-spaced size buckets over [0.01, 100]")
      ("policies", po::value(&policies)->default_value(policies), "comma-separated policies")
      ("k", po::value(&o.k)->default_value(100), "k of klps");
  po::variables_map vm;
  int code = 0;
  if (!ParseModelArgs(args, desc, vm, code)) return code;
  Status st = ParseSweepLists("0.5", policies, "original", o.lists);
  if (st.ok() && (o.buckets < 1 || !(o.load > 0) || o.jobs < 1)) {
    st = Status::InvalidArgument("need --buckets >= 1, --load > 0, --jobs >= 1");
  }
  if (!st.ok()) return Fail(st);
  st = RunSlowdownCommand(o, std::cout);
  return st.ok() ? 0 : Fail(st, ExitCodeFor(st));
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

int RunTaskSim(const std::vector<std::string>& args) {
  po::options_description desc(
      "mr model tasksim --workload FILE --policy P --workers N --map-slots M --reduce-slots R\n"
      "                 --shuffle-bandwidth BYTES_PER_S [options]\n"
      "Runs the live scheduler policy on a task-level simulation of the cluster");
  TaskSimOptions o;
  std::string bandwidth, speeds, map_time;
  desc.add_options()("help,h", "this help")
      ("workload", po::value(&o.workload)->required(), "CSV arrival,x,y or bench/policies JSON")
      ("policy", po::value(&o.policy)->required(), sched::PolicyNameList("|").c_str())
      ("workers", po::value(&o.cluster.workers)->required(), "number of workers")
      ("map-slots", po::value(&o.cluster.map_slots)->required(), "map slots per worker")
      ("reduce-slots", po::value(&o.cluster.reduce_slots)->required(), "reduce slots per worker")
      ("shuffle-bandwidth", po::value(&bandwidth)->required(), "egress cap per worker: 20MB/s")
      ("unified-slots", po::value(&o.cluster.unified_slots)->default_value(0),
       "unified slots per worker (a map or a reduce; --map-slots/--reduce-slots may then be 0)")
      ("speeds", po::value(&speeds), "per-worker speeds, one per worker: 1,1,0.5 (default all 1)")
      ("map-time", po::value(&map_time),
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
      ("maps-per-job", po::value(&o.shape.maps_per_job)->default_value(0),
       "maps per job of a CSV workload (0 = one per map slot)")
      ("reducers", po::value(&o.shape.reducers)->default_value(1), "reducers per job (CSV)")
      ("reduce-seconds", po::value(&o.shape.reduce_seconds)->default_value(0), "per reduce task")
      ("slow-start", po::value(&o.cluster.slow_start)->default_value(0.05, "0.05"),
       "fraction of maps done before reducers start")
      ("decision-latency", po::value(&o.cluster.decision_latency)->default_value(0),
       "seconds from an event to the scheduling round that reacts to it")
      ("map-time-cv", po::value(&o.cluster.map_time_cv)->default_value(0),
       "coefficient of variation of map durations (log-normal, mean = the job's)")
      ("seed", po::value(&o.cluster.seed)->default_value(1), "seed of the map duration noise")
      ("no-hints", "give the policy no size hints (it probes, then estimates online)")
      ("k", po::value<std::string>(), "k of klps (the same as --klps-k)");
  sched::AddPolicyOptionFlags(desc);
  sched::AddPlacementFlags(desc);
  po::variables_map vm;
  int code = 0;
  if (!ParseModelArgs(args, desc, vm, code)) return code;
  Result<sched::PolicyOptions> policy_options = PolicyOptionsFromArgs(vm, o.policy);
  if (!policy_options.ok()) return Fail(policy_options.status());
  o.policy_options = std::move(*policy_options);
  Result<sched::PlacementConfig> placement_config = sched::PlacementConfigFromVm(vm);
  if (!placement_config.ok()) return Fail(placement_config.status());
  o.placement = std::move(*placement_config);
  o.shape.hints = vm.count("no-hints") == 0;
  Result<double> rate = ParseRate(bandwidth);
  if (!rate.ok()) return Fail(rate.status().WithContext("--shuffle-bandwidth"));
  if (*rate <= 0) {
    return Fail(Status::InvalidArgument("--shuffle-bandwidth must be > 0 (no unlimited links)"));
  }
  o.cluster.shuffle_bandwidth = *rate;
  if (vm.count("speeds")) {
    Result<std::vector<double>> list = ParseSpeeds(speeds);
    if (!list.ok()) return Fail(list.status().WithContext("--speeds"));
    o.cluster.speeds = *std::move(list);
  }
  if (vm.count("map-time")) {
    if (o.cluster.map_time_cv > 0)
      return Fail(Status::InvalidArgument("give --map-time or --map-time-cv, not both"));
    Result<MapTimeDist> law = ParseMapTimeDist(map_time);
    if (!law.ok()) return Fail(law.status().WithContext("--map-time"));
    o.map_time = *law;
  }
  if (o.shape.maps_per_job < 0 || o.shape.reducers < 1 || !(o.shape.reduce_seconds >= 0)) {
    return Fail(Status::InvalidArgument(
        "need --maps-per-job >= 0, --reducers >= 1, --reduce-seconds >= 0"));
  }
  Status st = RunTaskSimCommand(o, std::cout);
  return st.ok() ? 0 : Fail(st, ExitCodeFor(st));
}

const Command kCommands[] = {
    {"tandem", "simulate a workload file under one policy, with the lower bound", RunTandem},
    {"tasksim", "a live scheduler policy on a task-level simulation of the cluster", RunTaskSim},
    {"gen", "generate a workload file (Google-trace-like by default)", RunGen},
    {"sweep", "relative E[T] vs load for every policy (paper Figure 7)", RunSweep},
    {"slowdown", "mean slowdown by job size (paper Figure 9)", RunSlowdown},
    {"slotted", "live policies in the ASRPT paper's slotted model, vs the SRPT bound",
     RunSlottedCommand},
    {"slotted-gen", "generate a slotted-model workload (the ASRPT paper's four)", RunSlottedGenCommand},
    {"mst", "straggling mappers: each map placement's rates and mean sojourn time", RunMstCommand},
    {"mst-optimal", "straggling mappers: the best number of mappers, or node mix under a budget",
     RunMstOptimalCommand},
};

void PrintUsage(std::FILE* f, std::span<const ExtraCommand> extra) {
  std::fprintf(f, "usage: mr model COMMAND [options]   (COMMAND --help for its options)\n");
  for (const Command& c : kCommands) std::fprintf(f, "  %-9s %s\n", c.name, c.summary);
  for (const ExtraCommand& c : extra) std::fprintf(f, "  %-9s %s\n", c.name, c.summary);
}

}  // namespace

int ModelMain(int argc, char** argv, std::span<const ExtraCommand> extra) {
  if (argc < 2) {
    PrintUsage(stderr, extra);
    return 2;
  }
  std::string sub = argv[1];
  if (sub == "help" || sub == "--help" || sub == "-h") {
    PrintUsage(stdout, extra);
    return 0;
  }
  for (const ExtraCommand& c : extra) {
    if (sub == c.name) return c.run(argc - 1, argv + 1);
  }
  std::vector<std::string> args(argv + 2, argv + argc);
  for (const Command& c : kCommands) {
    if (sub == c.name) return c.run(args);
  }
  std::fprintf(stderr, "mr model: unknown command '%s'\n", sub.c_str());
  PrintUsage(stderr, extra);
  return 2;
}

}  // namespace mr::model
