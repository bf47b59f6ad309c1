// `mr model tandem|gen|sweep|slowdown`: the fluid model's commands. The flags fill the
// options of model/model_commands.h; the work is there.
#include <charconv>
#include <iostream>
#include <string>

#include "cli/command.h"
#include "cli/model/model_flags.h"
#include "common/units.h"
#include "model/fluid/tandem_policy.h"
#include "model/model_commands.h"

namespace mr::cli {
namespace {

using model::SweepLists;
using model::TandemPolicy;

// Comma-separated lists; InvalidArgument/NotFound for a bad load, policy or variant.
Status ParseSweepLists(const std::string& loads, const std::string& policies,
                       const std::string& variants, SweepLists& out) {
  out = {};
  for (const std::string& l : SplitCommaList(loads)) {
    double v = 0;
    auto [ptr, ec] = std::from_chars(l.data(), l.data() + l.size(), v);
    if (ec != std::errc() || ptr != l.data() + l.size() || !(v > 0 && v <= 10)) {
      return Status::InvalidArgument("bad load '" + l + "' (want a number in (0, 10])");
    }
    out.loads.push_back(v);
  }
  for (const std::string& p : SplitCommaList(policies)) {
    Result<std::unique_ptr<TandemPolicy>> made = model::MakeTandemPolicy(p);
    if (!made.ok()) return made.status();
    out.policies.push_back(p);
  }
  for (const std::string& v : SplitCommaList(variants)) {
    if (v != "original" && v != "rebalanced") {
      return Status::InvalidArgument("bad variant '" + v + "' (known: original, rebalanced)");
    }
    out.variants.push_back(v);
  }
  if (out.loads.empty() || out.policies.empty() || out.variants.empty()) {
    return Status::InvalidArgument("empty list of loads, policies or variants");
  }
  return Status::Ok();
}

}  // namespace

int ModelTandemMain(const Args& args) {
  po::options_description desc(
      "mr model tandem --workload FILE --policy P [--k K]\n"
      "                [--workers N --map-slots M --shuffle-bandwidth RATE]  (a JSON workload)");
  model::TandemOptions o;
  desc.add_options()("help,h", "this help")
      ("workload", po::value(&o.workload)->required(),
       "CSV file arrival,x,y (fluid sizes), or a task-level JSON workload (as tasksim's) with the cluster flags")
      ("policy", po::value(&o.policy)->required(), "fifo|ps|klps|maxsrpt|splitsrpt")
      ("k", po::value(&o.k)->default_value(100), "k of klps")
      ("workers", po::value<int>(), "JSON workload: workers of the cluster its sizes are for")
      ("map-slots", po::value<int>(), "JSON workload: map slots per worker")
      ("unified-slots", po::value<int>()->default_value(0), "JSON workload: unified slots per worker")
      ("shuffle-bandwidth", po::value<std::string>(), "JSON workload: egress cap per worker, e.g. 20MB/s");
  po::variables_map vm;
  if (auto rc = ParseModelFlags(args, desc, vm)) return *rc;
  if (vm.count("workers") && vm.count("map-slots") && vm.count("shuffle-bandwidth")) {
    model::ClusterSpec cluster;
    cluster.workers = vm["workers"].as<int>();
    cluster.map_slots = vm["map-slots"].as<int>();
    cluster.unified_slots = vm["unified-slots"].as<int>();
    Result<double> rate = ParseRate(vm["shuffle-bandwidth"].as<std::string>());
    if (!rate.ok()) return BadModelFlag(args, rate.status().WithContext("--shuffle-bandwidth"));
    cluster.shuffle_bandwidth = *rate;
    o.cluster = cluster;
  }
  return ModelExit(args, model::RunTandemCommand(o, std::cout));
}

int ModelGenMain(const Args& args) {
  po::options_description desc("mr model gen --jobs N --load RHO --seed S [--rebalanced] --out FILE");
  model::GenOptions o;
  desc.add_options()("help,h", "this help")
      ("jobs", po::value(&o.workload.jobs)->required(), "number of jobs")
      ("load", po::value(&o.workload.load)->required(), "average load rho in (0, 10]")
      ("seed", po::value(&o.workload.seed)->default_value(1), "random seed")
      ("rebalanced", po::bool_switch(&o.workload.rebalanced), "cube-root rebalanced sizes (paper 5.2)")
      ("kind", po::value(&o.kind)->default_value("google"), "google | lognormal | poisson")
      ("out", po::value(&o.out)->required(), "output CSV file");
  po::variables_map vm;
  if (auto rc = ParseModelFlags(args, desc, vm)) return *rc;
  return ModelExit(args, model::RunGenCommand(o, std::cout));
}

int ModelSweepMain(const Args& args) {
  po::options_description desc("mr model sweep [--jobs N] [--seed S] [--loads L,..] [--csv]");
  model::SweepOptions o;
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
  if (auto rc = ParseModelFlags(args, desc, vm)) return *rc;
  if (Status st = ParseSweepLists(loads, policies, variants, o.lists); !st.ok()) return BadModelFlag(args, st);
  return ModelExit(args, model::RunSweepCommand(o, std::cout));
}

int ModelSlowdownMain(const Args& args) {
  po::options_description desc("mr model slowdown [--load RHO] [--jobs N] [--buckets B]");
  model::SlowdownOptions o;
  std::string policies = "klps,maxsrpt,splitsrpt";
  desc.add_options()("help,h", "this help")
      ("load", po::value(&o.load)->default_value(0.75), "load rho")
      ("jobs", po::value(&o.jobs)->default_value(200000), "jobs (Poisson, log-normal sizes)")
      ("seed", po::value(&o.seed)->default_value(1), "random seed")
      ("buckets", po::value(&o.buckets)->default_value(20), "log-spaced size buckets over [0.01, 100]")
      ("policies", po::value(&policies)->default_value(policies), "comma-separated policies")
      ("k", po::value(&o.k)->default_value(100), "k of klps");
  po::variables_map vm;
  if (auto rc = ParseModelFlags(args, desc, vm)) return *rc;
  if (Status st = ParseSweepLists("0.5", policies, "original", o.lists); !st.ok()) return BadModelFlag(args, st);
  return ModelExit(args, model::RunSlowdownCommand(o, std::cout));
}

}  // namespace mr::cli
