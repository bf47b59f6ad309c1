#include "model/slotted_commands.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/file_util.h"
#include "model/slotted/slotted_baselines.h"
#include "model/slotted/slotted_bounds.h"
#include "model/slotted/slotted_sim.h"
#include "model/slotted/slotted_workload.h"
#include "scheduler/policy_flags.h"

namespace mr::model {
namespace {

struct Row {
  std::string name;
  SlottedResult result;
};

// The paper's "total flow time in T time slots": the delay cost sum_t sum_i S_{i,t} over
// slots 1..T, i.e. sum_i (min(f_i, T) - a_i + 1) over the jobs arriving by T.
int64_t FlowWithin(std::span<const SlottedJob> jobs, const SlottedResult& r, int64_t horizon) {
  int64_t sum = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i].arrival <= horizon) sum += std::min(r.finish[i], horizon) - jobs[i].arrival + 1;
  }
  return sum;
}

// Nearest-rank percentile of sorted values: the ceil(p n)-th smallest.
int64_t Percentile(const std::vector<int64_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  const size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(sorted.size()) - 1e-9));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

std::string FormatRow(const Row& row, int64_t bound, int64_t bound_within, std::span<const SlottedJob> jobs,
                      int64_t horizon) {
  const SlottedResult& r = row.result;
  std::vector<int64_t> flows = r.flow_time;
  std::sort(flows.begin(), flows.end());
  const int64_t within = FlowWithin(jobs, r, horizon);
  const double n = flows.empty() ? 1.0 : static_cast<double>(flows.size());
  char buf[384];
  std::snprintf(buf, sizeof buf, "%s,%lld,%lld,%.4f,%lld,%lld,%.4f,%.3f,%lld,%lld,%lld,%lld\n", row.name.c_str(),
                static_cast<long long>(r.total_flow_time), static_cast<long long>(bound),
                bound > 0 ? static_cast<double>(r.total_flow_time) / static_cast<double>(bound) : 0,
                static_cast<long long>(r.last_slot), static_cast<long long>(within),
                bound_within > 0 ? static_cast<double>(within) / static_cast<double>(bound_within) : 0,
                static_cast<double>(r.total_flow_time) / n, static_cast<long long>(Percentile(flows, 0.5)),
                static_cast<long long>(Percentile(flows, 0.9)), static_cast<long long>(Percentile(flows, 0.99)),
                static_cast<long long>(flows.empty() ? 0 : flows.back()));
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
  sched::PolicyOptions options;
  if (!IsSlottedBaseline(name)) {
    MR_ASSIGN_OR_RETURN(options, sched::PolicyOptionsFromFlags(name, o.policy_flags));
  }
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
  } else {
    MR_ASSIGN_OR_RETURN(SlottedResult floor, NonPreemptiveFloor(jobs, o.machines));
    rows.push_back({"np-floor", std::move(floor)});
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
  // T: the last slot with an arrival (--until when given), as the paper's horizon.
  const int64_t horizon = o.until > 0 ? o.until : (jobs.empty() ? 0 : jobs.back().arrival);
  out << "; T = " << horizon
      << "\nschedule,total_flow_time,srpt_bound,ratio,last_slot,flow_within_T,ratio_within_T,mean,p50,p90,p99,max\n";
  const int64_t lb = rows[0].result.total_flow_time;
  const int64_t lb_within = FlowWithin(jobs, rows[0].result, horizon);
  for (const Row& r : rows) out << FormatRow(r, lb, lb_within, jobs, horizon);
  if (!o.per_job.empty()) MR_RETURN_IF_ERROR(WritePerJob(o.per_job, jobs, rows));
  return Status::Ok();
}

Status RunSlottedGenCommand(const SlottedGenCommandOptions& o, std::ostream& out) {
  MR_ASSIGN_OR_RETURN(std::vector<SlottedJob> jobs, GenerateSlotted(o.gen));
  MR_RETURN_IF_ERROR(SaveSlottedWorkload(o.out, jobs, DescribeGenerator(o.name, o.gen)));
  int64_t maps = 0, reduces = 0;
  for (const SlottedJob& j : jobs) maps += j.maps, reduces += j.reduce_units();
  const double n = jobs.empty() ? 1.0 : static_cast<double>(jobs.size());
  char line[256];
  std::snprintf(line, sizeof line, ": %zu jobs, mean %.2f map units and %.2f reduce units, %.2f units per slot\n",
                jobs.size(), maps / n, reduces / n, static_cast<double>(maps + reduces) / static_cast<double>(o.gen.slots));
  out << "wrote " << o.out << line;
  return Status::Ok();
}

}  // namespace mr::model
