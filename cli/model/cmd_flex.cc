// `mr model flex`: the FLEX paper's simulation (model/flex/flex_sim.h). The flags fill
// model::FlexSimOptions; the work is RunFlexSim's.
#include <iostream>
#include <string>

#include "cli/command.h"
#include "cli/model/model_flags.h"
#include "model/flex/flex_sim.h"
#include "scheduler/flex/metrics.h"

namespace mr::cli {
namespace {

Status ParseOptimum(const std::string& text, model::FlexOptimumMethod* out) {
  if (text == "search") {
    *out = model::FlexOptimumMethod::kSearch;
  } else if (text == "enumeration") {
    *out = model::FlexOptimumMethod::kEnumeration;
  } else if (text == "none") {
    *out = model::FlexOptimumMethod::kNone;
  } else {
    return Status::InvalidArgument("--optimum must be search, enumeration or none, not '" + text + "'");
  }
  return Status::Ok();
}

Status ParseStepSolver(const std::string& text, flex::StepSolver* out) {
  if (text == "breakpoints") {
    *out = flex::StepSolver::kBreakpoints;
  } else if (text == "paper-dp") {
    *out = flex::StepSolver::kPaperDp;
  } else {
    return Status::InvalidArgument("--step-solver must be breakpoints or paper-dp, not '" + text + "'");
  }
  return Status::Ok();
}

}  // namespace

int ModelFlexMain(const Args& args) {
  po::options_description desc(
      "mr model flex [--jobs J] [--slots S] [--instances N] [--small F] [--slack F] [--metric M] ...\n"
      "The simulation of 'FLEX: A Slot Allocation Scheduling Optimizer for MapReduce Workloads'\n"
      "(section 4.1): N random instances of J jobs on S slots, each scheme's metric (FIFO, FAIR,\n"
      "FLEX) divided by the optimum over all priority orders; mean and worst ratio per scheme\n"
      "(docs/flex.md, \"The simulation\")");
  model::FlexSimOptions o;
  model::FlexWorkloadOptions& w = o.workload;
  std::string metric(flex::MetricName(w.metric)), optimum = "search", step = "breakpoints";
  const std::string metric_help = "the metric: " + flex::MetricNameList();
  desc.add_options()("help,h", "this help")
      ("jobs", po::value(&w.jobs)->default_value(w.jobs), "J: jobs per instance, all arriving at time 0")
      ("slots", po::value(&w.slots)->default_value(w.slots), "S: slots")
      ("instances", po::value(&o.instances)->default_value(o.instances), "random instances")
      ("small", po::value(&w.small_share)->default_value(w.small_share, "0.8"), "share of small jobs, 0..1")
      ("slack", po::value(&w.slack)->default_value(w.slack, "0.75"),
       "share of the slots left after the minima, 0..1")
      ("metric", po::value(&metric)->default_value(metric), metric_help.c_str())
      ("seed", po::value(&w.seed)->default_value(w.seed), "random seed (instance i of a seed is always the same)")
      ("tasks", po::value(&w.total_tasks)->default_value(w.total_tasks, "3000"),
       "total work of an instance, in tasks of one time unit")
      ("deadline-scale", po::value(&w.deadline_scale)->default_value(w.deadline_scale, "1"),
       "deadlines uniform on (0, scale x tasks / slots)")
      ("sla-steps", po::value(&w.sla_steps)->default_value(w.sla_steps), "SLA steps per job")
      ("optimum", po::value(&optimum)->default_value(optimum),
       "search (exact, pruned), enumeration (all J! orders, J <= 10) or none (ratios to FLEX)")
      ("swap-rounds", po::value(&o.flex.swap_rounds)->default_value(o.flex.swap_rounds),
       "FLEX: rounds of adjacent swaps on the best order (not in the paper; 0 = off)")
      ("step-solver", po::value(&step)->default_value(step),
       "FLEX's solver for step metrics (tardy jobs, SLA): breakpoints or paper-dp")
      ("csv", po::bool_switch(&o.csv), "one CSV row per scheme instead of a table")
      ("per-instance", po::bool_switch(&o.per_instance), "also one CSV row per instance and scheme");
  po::variables_map vm;
  if (auto rc = ParseModelFlags(args, desc, vm)) return *rc;
  Result<flex::Metric> m = flex::ParseMetric(metric);
  if (!m.ok()) return BadModelFlag(args, m.status().WithContext("--metric"));
  w.metric = *m;
  if (Status st = ParseOptimum(optimum, &o.optimum); !st.ok()) return BadModelFlag(args, st);
  if (Status st = ParseStepSolver(step, &o.flex.step_solver); !st.ok()) return BadModelFlag(args, st);
  // Options RunFlexSim refuses (J, S, shares out of range) exit 2 as any bad flag.
  return ModelExit(args, model::RunFlexSim(o, std::cout));
}

}  // namespace mr::cli
