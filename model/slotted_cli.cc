#include "model/slotted_cli.h"

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "common/file_util.h"
#include "model/model_commands.h"
#include "model/slotted/slotted_bounds.h"
#include "model/slotted/slotted_sim.h"
#include "model/slotted/slotted_workload.h"
#include "scheduler/policy_flags.h"
#include "scheduler/policy_program_options.h"
#include "model/cli_args.h"
#include "scheduler/policy_table.h"

namespace mr::model {
namespace {

namespace po = boost::program_options;

struct Row {
  std::string name;
  SlottedResult result;
};

std::string FormatRow(const Row& row, int64_t bound) {
  char buf[256];
  const double ratio = bound > 0 ? static_cast<double>(row.result.total_flow_time) / bound : 0;
  std::snprintf(buf, sizeof buf, "%s,%lld,%lld,%.4f,%lld\n", row.name.c_str(),
                static_cast<long long>(row.result.total_flow_time), static_cast<long long>(bound),
                ratio, static_cast<long long>(row.result.last_slot));
  return buf;
}

Status WritePerJob(const std::string& path, std::span<const SlottedJob> jobs,
                   const std::vector<Row>& rows) {
  std::string csv = "job,arrival,maps,reduce_tasks,reduce_units";
  for (const Row& r : rows) csv += "," + r.name;
  csv += "\n";
  for (size_t i = 0; i < jobs.size(); ++i) {
    csv += std::to_string(i + 1) + "," + std::to_string(jobs[i].arrival) + "," +
           std::to_string(jobs[i].maps) + "," + std::to_string(jobs[i].reduces.size()) + "," +
           std::to_string(jobs[i].reduce_units());
    for (const Row& r : rows) csv += "," + std::to_string(r.result.flow_time[i]);
    csv += "\n";
  }
  return WriteFileAtomically(path, csv);
}

Result<SlottedResult> RunOne(const std::string& name, std::span<const SlottedJob> jobs,
                             const SlottedReportOptions& o) {
  MR_ASSIGN_OR_RETURN(sched::PolicyOptions options, sched::PolicyOptionsFromFlags(name, o.policy_flags));
  MR_ASSIGN_OR_RETURN(std::unique_ptr<sched::Scheduler> policy, MakeSlottedPolicy(name, options));
  SlottedOptions so;
  so.machines = o.machines;
  so.preemptive = o.preemptive;
  return RunSlotted(jobs, *policy, so);
}

}  // namespace

Status RunSlottedReport(const SlottedReportOptions& o, std::ostream& out) {
  if (o.policies.empty()) return Status::InvalidArgument("no policy given");
  if (o.machines < 1) return Status::InvalidArgument("--machines must be >= 1");
  if (o.until < 0) return Status::InvalidArgument("--until must be >= 0");
  MR_ASSIGN_OR_RETURN(std::vector<SlottedJob> jobs, LoadSlottedWorkload(o.workload));
  if (o.until > 0) {
    std::erase_if(jobs, [&](const SlottedJob& j) { return j.arrival > o.until; });
  }
  std::vector<Row> rows;
  MR_ASSIGN_OR_RETURN(SlottedResult bound, SrptLowerBound(jobs, o.machines));
  rows.push_back({"srpt-bound", std::move(bound)});
  if (o.preemptive) {
    MR_ASSIGN_OR_RETURN(SlottedResult dsrpt, DelayedSrpt(jobs, o.machines));
    rows.push_back({"dsrpt", std::move(dsrpt)});
  }
  for (const std::string& name : o.policies) {
    Result<SlottedResult> r = RunOne(name, jobs, o);
    if (!r.ok()) return r.status();
    rows.push_back({name, *std::move(r)});
  }
  int64_t work = 0;
  for (const SlottedJob& j : jobs) work += j.maps + j.reduce_units();
  out << "# " << o.workload << ": " << jobs.size() << " jobs, " << work << " units of work, "
      << o.machines << " machines, reduce " << (o.preemptive ? "preemptive" : "non-preemptive");
  if (o.until > 0) out << ", arrivals in slots 1.." << o.until;
  out << "\nschedule,total_flow_time,srpt_bound,ratio,last_slot\n";
  const int64_t lb = rows[0].result.total_flow_time;
  for (const Row& r : rows) out << FormatRow(r, lb);
  if (!o.per_job.empty()) MR_RETURN_IF_ERROR(WritePerJob(o.per_job, jobs, rows));
  return Status::Ok();
}

int RunSlottedCommand(const std::vector<std::string>& args) {
  po::options_description desc(
      "mr model slotted --workload FILE --policy P[,P...] [--preemptive] [--machines N]\n"
      "Runs live policies in the slotted model of 'Minimizing total flow time of MapReduce\n"
      "jobs' and prints each one's total flow time and its ratio to the SRPT lower bound");
  SlottedReportOptions o;
  std::string policies;
  desc.add_options()("help,h", "this help")
      ("workload", po::value(&o.workload)->required(), "slotted workload JSON (mr model slotted-gen)")
      ("policy", po::value(&policies)->required(),
       ("comma-separated live policies: " + sched::PolicyNameList(", ")).c_str())
      ("preemptive", po::bool_switch(&o.preemptive),
       "reduce units may run in parallel and move between machines every slot")
      ("machines", po::value(&o.machines)->default_value(100), "N machines")
      ("until", po::value(&o.until)->default_value(0), "only jobs arriving by this slot (0 = all)")
      ("per-job", po::value(&o.per_job), "write every job's flow time per schedule to this CSV");
  sched::AddPolicyOptionFlags(desc);
  po::variables_map vm;
  int code = 0;
  if (!ParseModelArgs(args, desc, vm, code)) return code;
  o.policies = SplitCommaList(policies);
  o.policy_flags = sched::GivenPolicyFlags(vm);
  Status st = RunSlottedReport(o, std::cout);
  return st.ok() ? 0 : Fail(st, ExitCodeFor(st));
}

int RunSlottedGenCommand(const std::vector<std::string>& args) {
  po::options_description desc(
      "mr model slotted-gen --workload NAME | --map DIST --reduce DIST [options] --out FILE\n"
      "The slotted model's workloads: Poisson arrivals per slot, M_i unit map tasks, R_i\n"
      "reduce units over K_i (uniform on 1..min(10, R_i)) reduce tasks. DIST: exp:MEAN (rounded,\n"
      "at least 1) or u:LO:HI (uniform on the integers)");
  SlottedGenOptions o;
  std::string name, map, reduce, out;
  desc.add_options()("help,h", "this help")
      ("workload", po::value(&name), "the paper's: exp5-exp40 | exp30-exp15 | u1-9-u10-70 | u10-50-u10-20")
      ("map", po::value(&map), "map units per job (instead of --workload)")
      ("reduce", po::value(&reduce), "reduce units per job (instead of --workload)")
      ("rate", po::value(&o.rate)->default_value(2), "lambda: mean arrivals per slot")
      ("slots", po::value(&o.slots)->default_value(500), "T: arrivals in slots 1..T")
      ("max-reduce-tasks", po::value(&o.max_reduce_tasks)->default_value(10), "largest K_i")
      ("seed", po::value(&o.seed)->default_value(1), "random seed")
      ("out", po::value(&out)->required(), "output JSON file");
  po::variables_map vm;
  int code = 0;
  if (!ParseModelArgs(args, desc, vm, code)) return code;
  const bool by_name = !name.empty(), by_dists = !map.empty() || !reduce.empty();
  if (by_name == by_dists || (by_dists && (map.empty() || reduce.empty()))) {
    return Fail(Status::InvalidArgument("give --workload NAME, or both --map and --reduce"));
  }
  if (!name.empty()) {
    Result<SlottedGenOptions> paper = PaperWorkload(name, o);
    if (!paper.ok()) return Fail(paper.status());
    o = *paper;
  } else {
    Result<UnitDist> m = ParseUnitDist(map), r = ParseUnitDist(reduce);
    if (!m.ok()) return Fail(m.status().WithContext("--map"));
    if (!r.ok()) return Fail(r.status().WithContext("--reduce"));
    o.map = *m;
    o.reduce = *r;
    name = "custom";
  }
  Result<std::vector<SlottedJob>> jobs = GenerateSlotted(o);
  if (!jobs.ok()) return Fail(jobs.status());
  Status st = SaveSlottedWorkload(out, *jobs, DescribeGenerator(name, o));
  if (!st.ok()) return Fail(st);
  int64_t maps = 0, reduces = 0;
  for (const SlottedJob& j : *jobs) maps += j.maps, reduces += j.reduce_units();
  const double n = jobs->empty() ? 1.0 : static_cast<double>(jobs->size());
  std::printf("wrote %s: %zu jobs, mean %.2f map units and %.2f reduce units, %.2f units per slot\n",
              out.c_str(), jobs->size(), maps / n, reduces / n,
              static_cast<double>(maps + reduces) / static_cast<double>(o.slots));
  return 0;
}

}  // namespace mr::model
