// `mr batch plan|sweep`: a batch of jobs' makespan (docs/makespan.md). The flags fill the
// options of model/makespan/batch_plan.h and batch_sweep.h; the work is there.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/batch_run.h"
#include "cli/job_client.h"
#include "common/file_util.h"
#include "master/profile_report.h"
#include "model/makespan/batch_plan.h"
#include "model/makespan/batch_sweep.h"

namespace mr::cli {
namespace {


const char kPlanUsage[] =
    "mr batch plan (--jobs FILE | --workload NAME [--count N] [--seed S] | --profiles NAMES --state DIR)\n"
    "              --workers N\n"
    "              [--map-slots M] [--reduce-slots R] [--order NAMES] [--out PLAN]\n"
    "              [--pools-by maps|work] [--pool-search crossing|paper] [--slow-start F]\n\n"
    "  Johnson's order, BalancedPools' two pools and their simulated makespans for a batch of\n"
    "  jobs all there at once, beside reverse Johnson's and arrival order's (docs/makespan.md).";

const char kSweepUsage[] =
    "mr batch sweep --workload NAME [--count N] [--seed S] --nodes LIST|FROM:TO:STEP [--csv]\n"
    "               [--slow-start F] [--pools-by maps|work] [--pool-search crossing|paper]\n\n"
    "  The paper's Min, Max, MinSim, MaxSim and BalancedPools makespans of one generated batch\n"
    "  at each cluster size (nodes of one map and one reduce slot; docs/makespan.md).";

const char kRunUsage[] =
    "mr batch run PLAN --master ADDR --output DIR [--schedule S] [--work burn|sleep] [--time-scale F]\n\n"
    "  Submits a plan's batch to a running master in the schedule's order (BalancedPools: each\n"
    "  job in its pool's capacity queue), waits, and prints the measured makespan beside the\n"
    "  plan's prediction. A plan made for another cluster shape submits nothing (exit 2).";

std::string WorkloadHelp() {
  return "a generated batch: " + model::MakespanWorkloadNames();
}

// "10,20,40" or "FROM:TO:STEP", integers >= 1, at most 10000 of them.
Result<std::vector<int>> ParseNodes(const std::string& text) {
  std::vector<int> out;
  auto number = [&](const std::string& s) -> Result<int> {
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || v < 1 || v > 1000000) {
      return Status::InvalidArgument("--nodes: '" + s + "' is not an integer in 1..1000000");
    }
    return static_cast<int>(v);
  };
  const size_t c1 = text.find(':');
  if (c1 == std::string::npos) {
    for (const std::string& item : SplitCommaList(text)) {
      MR_ASSIGN_OR_RETURN(int v, number(item));
      out.push_back(v);
    }
  } else {
    const size_t c2 = text.find(':', c1 + 1);
    if (c2 == std::string::npos) return Status::InvalidArgument("--nodes: expected FROM:TO:STEP, got '" + text + "'");
    MR_ASSIGN_OR_RETURN(int from, number(text.substr(0, c1)));
    MR_ASSIGN_OR_RETURN(int to, number(text.substr(c1 + 1, c2 - c1 - 1)));
    MR_ASSIGN_OR_RETURN(int step, number(text.substr(c2 + 1)));
    if (to < from) return Status::InvalidArgument("--nodes: '" + text + "' needs TO >= FROM");
    for (int v = from; v <= to; v += step) out.push_back(v);
  }
  if (out.empty()) return Status::InvalidArgument("--nodes: no size");
  if (out.size() > 10000) return Status::InvalidArgument("--nodes: at most 10000 sizes");
  return out;
}

int BadFlag(const Args& args, const Status& s) { return Fail(ErrorPrefix(args), s, kExitUsage); }

// The BalancedPools variants' flags, shared by plan and sweep (docs/makespan.md, "Departures
// from the paper"); the paper's behaviour is every default.
struct VariantFlags {
  std::string pools_by, search;
  double slow_start = 1;
  void Add(po::options_description& desc) {
    desc.add_options()
        ("pools-by", po::value(&pools_by)->default_value("maps"),
         "BalancedPools ranks jobs by: maps (the paper: map tasks) or work (slot-seconds)")
        ("pool-search", po::value(&search)->default_value("crossing"),
         "BalancedPools' size search: crossing (ours) or paper (the pseudocode's loop, made to end)")
        ("slow-start", po::value(&slow_start)->default_value(1.0),
         "reduces take a slot once this fraction of their job's maps ended (1: mrlab; Hadoop's 0.05)");
  }
  Status Apply(model::PoolsOptions& pools) const {
    if (!(slow_start > 0 && slow_start <= 1)) {
      return Status::InvalidArgument("--slow-start must be in (0, 1]");
    }
    pools.sim.reduce_slow_start = slow_start;
    return model::ParsePoolsVariants(pools_by, search, pools);
  }
};

}  // namespace

int BatchPlanMain(const Args& args) {
  po::options_description desc("batch plan options");
  model::BatchPlanOptions o;
  std::string order, profiles, state;
  int map_slots = 0, reduce_slots = 0;
  desc.add_options()
      ("jobs", po::value(&o.jobs_file), "the jobs file (JSON; docs/makespan.md, \"Jobs file\")")
      ("workload", po::value(&o.workload.name), WorkloadHelp().c_str())
      ("count", po::value(&o.workload.jobs)->default_value(0), "--workload: jobs (0: the paper's 100)")
      ("seed", po::value(&o.workload.seed)->default_value(1), "--workload: the generator's seed")
      ("mean-tasks", po::bool_switch(&o.mean_tasks),
       "--workload: each job's tasks of their mean duration, as the live generator plays them")
      ("profiles", po::value(&profiles), "job names, comma-separated: each one's newest stored ARIA profile")
      ("state", po::value(&state), "--profiles: the master's state directory (mr master --state)")
      ("workers", po::value(&o.cluster.workers)->required(), "the cluster's workers")
      ("map-slots", po::value(&map_slots), "map slots in all (default: one per worker)")
      ("reduce-slots", po::value(&reduce_slots), "reduce slots in all (default: one per worker)")
      ("order", po::value(&order), "job names, comma-separated: an order to simulate beside the plan's")
      ("out", po::value(&o.out), "write the plan file here (docs/makespan.md, \"Plan file\")");
  VariantFlags variants;
  variants.Add(desc);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine(kPlanUsage))) return *rc;
  if (Status st = variants.Apply(o.pools); !st.ok()) return BadFlag(args, st);
  if (vm.count("jobs") + vm.count("workload") + vm.count("profiles") != 1) {
    return BadFlag(args, Status::InvalidArgument("give one of --jobs, --workload and --profiles"));
  }
  if (!vm.count("workload") && (!vm["count"].defaulted() || !vm["seed"].defaulted() || o.mean_tasks)) {
    return BadFlag(args, Status::InvalidArgument("--count, --seed and --mean-tasks go with --workload"));
  }
  if (vm.count("profiles") != vm.count("state")) {
    return BadFlag(args, Status::InvalidArgument("--profiles and --state go together"));
  }
  if (vm.count("profiles")) {
    Result<std::vector<model::JobProfile>> loaded = master::LoadNewestProfiles(state, SplitCommaList(profiles));
    if (!loaded.ok()) return Fail(ErrorPrefix(args), loaded.status());
    if (loaded->empty()) return BadFlag(args, Status::InvalidArgument("--profiles: no name"));
    o.profiles = std::move(*loaded);
  }
  o.cluster.map_slots = vm.count("map-slots") ? map_slots : o.cluster.workers;
  o.cluster.reduce_slots = vm.count("reduce-slots") ? reduce_slots : o.cluster.workers;
  o.order = SplitCommaList(order);
  const Status st = model::RunBatchPlan(o, std::cout);
  return st.ok() ? kExitOk : Fail(ErrorPrefix(args), st);
}

int BatchSweepMain(const Args& args) {
  po::options_description desc("batch sweep options");
  model::BatchSweepOptions o;
  std::string nodes;
  VariantFlags variants;
  desc.add_options()
      ("workload", po::value(&o.workload.name)->required(), WorkloadHelp().c_str())
      ("count", po::value(&o.workload.jobs)->default_value(0), "jobs (0: the paper's 100)")
      ("seed", po::value(&o.workload.seed)->default_value(1), "the generator's seed")
      ("nodes", po::value(&nodes)->required(), "cluster sizes: 10,20,40 or FROM:TO:STEP")
      ("csv", po::bool_switch(&o.csv), "CSV instead of a table");
  variants.Add(desc);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine(kSweepUsage))) return *rc;
  Result<std::vector<int>> sizes = ParseNodes(nodes);
  if (!sizes.ok()) return BadFlag(args, sizes.status());
  o.nodes = *sizes;
  if (Status st = variants.Apply(o.pools); !st.ok()) return BadFlag(args, st);
  const Status st = model::RunBatchSweep(o, std::cout);
  return st.ok() ? kExitOk : Fail(ErrorPrefix(args), st);
}

int BatchRunMain(const Args& args) {
  po::options_description desc("batch run options");
  BatchRunOptions o;
  std::string work = "burn", output;
  desc.add_options()
      ("plan", po::value(&o.plan_file)->required(), "the plan file (mr batch plan --out)")
      ("master", po::value<std::string>(), "master address (default $MR_MASTER)")
      ("token-file", po::value<std::string>(), kTokenFileHelp)
      ("schedule", po::value(&o.schedule)->default_value("balancedpools"),
       "balancedpools (its pools as capacity queues), johnson, reverse-johnson or fifo")
      ("output", po::value(&output)->required(), "directory for the jobs' outputs (OUTPUT/NAME each)")
      ("work", po::value(&work)->default_value(work), "synthetic tasks burn CPU or sleep (mr submit --work)")
      ("time-scale", po::value(&o.time_scale)->default_value(1), "live seconds per second of the plan")
      ("slow-start", po::value(&o.slow_start)->default_value(0.05), "every job's --slow-start");
  po::positional_options_description pos;
  pos.add("plan", 1);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine(kRunUsage, &pos))) return *rc;
  if (work != "burn" && work != "sleep") return BadFlag(args, Status::InvalidArgument("--work must be burn or sleep"));
  o.work = work == "burn" ? experiment::WorkMode::kBurn : experiment::WorkMode::kSleep;
  o.output_dir = AbsolutePath(output);
  auto client = ConnectClient(vm);
  if (!client.ok()) return ClientError(client.status());
  const Status st = RunBatchPlanLive(o, **client, std::cout);
  return st.ok() ? kExitOk : Fail(ErrorPrefix(args), st);
}

}  // namespace mr::cli
