// mr_flex_sim: the FLEX paper's simulation (model/flex/flex_sim.h) from the command line, for
// bench/flex/run.sh until `mr model flex` exists. Deterministic; measures no time.
//
//   mr_flex_sim [--jobs 10] [--slots 100] [--instances 100] [--small 0.8] [--slack 0.75]
//               [--metric response-time] [--seed 1] [--tasks 1000] [--deadline-scale 1]
//               [--sla-steps 3] [--optimum search|enumeration|none] [--swap-rounds 0]
//               [--step-solver breakpoints|paper-dp] [--csv] [--per-instance]
#include <boost/program_options.hpp>
#include <iostream>
#include <string>

#include "model/flex/flex_sim.h"

namespace po = boost::program_options;

namespace {

mr::Status Parse(int argc, char** argv, mr::model::FlexSimOptions* o, bool* help) {
  mr::model::FlexWorkloadOptions& w = o->workload;
  std::string metric = "response-time", optimum = "search", step = "breakpoints";
  po::options_description desc("mr_flex_sim options");
  // clang-format off
  desc.add_options()("help", "this text")
      ("jobs", po::value(&w.jobs)->default_value(w.jobs), "jobs per instance (J)")
      ("slots", po::value(&w.slots)->default_value(w.slots), "slots (S)")
      ("instances", po::value(&o->instances)->default_value(o->instances), "instances")
      ("small", po::value(&w.small_share)->default_value(w.small_share), "small-job share")
      ("slack", po::value(&w.slack)->default_value(w.slack), "slack parameter")
      ("metric", po::value(&metric)->default_value(metric), mr::flex::MetricNameList().c_str())
      ("seed", po::value(&w.seed)->default_value(w.seed), "seed")
      ("tasks", po::value(&w.total_tasks)->default_value(w.total_tasks), "total work in tasks")
      ("deadline-scale", po::value(&w.deadline_scale)->default_value(w.deadline_scale),
       "deadlines uniform on (0, scale x tasks / slots)")
      ("sla-steps", po::value(&w.sla_steps)->default_value(w.sla_steps), "SLA steps per job")
      ("optimum", po::value(&optimum)->default_value(optimum), "search, enumeration or none")
      ("swap-rounds", po::value(&o->flex.swap_rounds)->default_value(o->flex.swap_rounds),
       "FLEX: rounds of adjacent swaps on the best order")
      ("step-solver", po::value(&step)->default_value(step), "breakpoints or paper-dp")
      ("csv", po::bool_switch(&o->csv), "CSV instead of a table")
      ("per-instance", po::bool_switch(&o->per_instance), "one row per instance too");
  // clang-format on
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    return mr::Status::InvalidArgument(e.what());
  }
  if (vm.count("help")) {
    std::cout << desc;
    *help = true;
    return mr::Status::Ok();
  }
  MR_ASSIGN_OR_RETURN(w.metric, mr::flex::ParseMetric(metric));
  if (optimum == "search") {
    o->optimum = mr::model::FlexOptimumMethod::kSearch;
  } else if (optimum == "enumeration") {
    o->optimum = mr::model::FlexOptimumMethod::kEnumeration;
  } else if (optimum == "none") {
    o->optimum = mr::model::FlexOptimumMethod::kNone;
  } else {
    return mr::Status::InvalidArgument("--optimum must be search, enumeration or none");
  }
  if (step == "breakpoints") {
    o->flex.step_solver = mr::flex::StepSolver::kBreakpoints;
  } else if (step == "paper-dp") {
    o->flex.step_solver = mr::flex::StepSolver::kPaperDp;
  } else {
    return mr::Status::InvalidArgument("--step-solver must be breakpoints or paper-dp");
  }
  return mr::Status::Ok();
}

}  // namespace

int main(int argc, char** argv) {
  mr::model::FlexSimOptions options;
  bool help = false;
  mr::Status st = Parse(argc, argv, &options, &help);
  if (st.ok() && !help) st = mr::model::RunFlexSim(options, std::cout);
  if (!st.ok()) {
    std::cerr << "mr_flex_sim: " << st.message() << "\n";
    return 2;
  }
  return 0;
}
