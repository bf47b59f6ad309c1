// `mr model slotted|slotted-gen`: the ASRPT paper's slotted model. The flags fill the
// options of model/slotted_commands.h; the work is there.
#include <iostream>
#include <string>

#include "cli/command.h"
#include "cli/model/model_flags.h"
#include "cli/scheduler_flags.h"
#include "model/slotted/slotted_workload.h"
#include "model/slotted_commands.h"
#include "scheduler/policy_table.h"

namespace mr::cli {

int ModelSlottedMain(const Args& args) {
  po::options_description desc(
      "mr model slotted --workload FILE --policy P[,P...] [--preemptive] [--machines N]\n"
      "Runs live policies in the slotted model of 'Minimizing total flow time of MapReduce\n"
      "jobs' and prints each one's total flow time and its ratio to the SRPT lower bound");
  model::SlottedReportOptions o;
  std::string policies;
  desc.add_options()("help,h", "this help")
      ("workload", po::value(&o.workload)->required(), "slotted workload JSON (mr model slotted-gen)")
      ("policy", po::value(&policies)->required(),
       ("comma-separated live policies (" + sched::PolicyNameList(", ") +
        ") or the paper's own baselines (paper-fifo, paper-fair)").c_str())
      ("preemptive", po::bool_switch(&o.preemptive),
       "reduce units may run in parallel and move between machines every slot")
      ("machines", po::value(&o.machines)->default_value(100), "N machines")
      ("until", po::value(&o.until)->default_value(0), "only jobs arriving by this slot (0 = all)")
      ("per-job", po::value(&o.per_job), "write every job's flow time per schedule to this CSV");
  AddPolicyOptionFlags(desc);
  po::variables_map vm;
  if (auto rc = ParseModelFlags(args, desc, vm)) return *rc;
  o.policies = SplitCommaList(policies);
  o.policy_flags = GivenPolicyFlags(vm);
  return ModelExit(args, model::RunSlottedReport(o, std::cout));
}

int ModelSlottedGenMain(const Args& args) {
  po::options_description desc(
      "mr model slotted-gen --workload NAME | --map DIST --reduce DIST [options] --out FILE\n"
      "The slotted model's workloads: Poisson arrivals per slot, M_i unit map tasks, R_i\n"
      "reduce units over K_i (uniform on 1..min(10, R_i)) reduce tasks. DIST: exp:MEAN (rounded,\n"
      "at least 1) or u:LO:HI (uniform on the integers)");
  model::SlottedGenCommandOptions c;
  model::SlottedGenOptions& o = c.gen;
  std::string name, map, reduce, reduce_tasks;
  desc.add_options()("help,h", "this help")
      ("workload", po::value(&name), "the paper's: exp5-exp40 | exp30-exp15 | u1-9-u10-70 | u10-50-u10-20")
      ("map", po::value(&map), "map units per job (instead of --workload)")
      ("reduce", po::value(&reduce), "reduce units per job (instead of --workload)")
      ("rate", po::value(&o.rate)->default_value(2), "lambda: mean arrivals per slot")
      ("slots", po::value(&o.slots)->default_value(500), "T: arrivals in slots 1..T")
      ("max-reduce-tasks", po::value(&o.max_reduce_tasks)->default_value(10), "largest K_i")
      ("reduce-tasks", po::value(&reduce_tasks)->default_value("uniform"),
       "K_i: uniform (on 1..min(max, R_i)) or most (min(max, R_i): the other reading of the paper's "
       "'up to 10 tasks per job')")
      ("seed", po::value(&o.seed)->default_value(1), "random seed")
      ("out", po::value(&c.out)->required(), "output JSON file");
  po::variables_map vm;
  if (auto rc = ParseModelFlags(args, desc, vm)) return *rc;
  if (reduce_tasks != "uniform" && reduce_tasks != "most") {
    return BadModelFlag(args, Status::InvalidArgument("--reduce-tasks '" + reduce_tasks + "': expected uniform or most"));
  }
  o.most_reduce_tasks = reduce_tasks == "most";
  const bool by_name = !name.empty(), by_dists = !map.empty() || !reduce.empty();
  if (by_name == by_dists || (by_dists && (map.empty() || reduce.empty()))) {
    return BadModelFlag(args, Status::InvalidArgument("give --workload NAME, or both --map and --reduce"));
  }
  if (!name.empty()) {
    Result<model::SlottedGenOptions> paper = model::PaperWorkload(name, o);
    if (!paper.ok()) return BadModelFlag(args, paper.status());
    o = *paper;
  } else {
    Result<model::UnitDist> m = model::ParseUnitDist(map), r = model::ParseUnitDist(reduce);
    if (!m.ok()) return BadModelFlag(args, m.status().WithContext("--map"));
    if (!r.ok()) return BadModelFlag(args, r.status().WithContext("--reduce"));
    o.map = *m;
    o.reduce = *r;
    name = "custom";
  }
  c.name = name;
  return ModelExit(args, model::RunSlottedGenCommand(c, std::cout));
}

}  // namespace mr::cli
