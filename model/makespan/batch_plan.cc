#include "model/makespan/batch_plan.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "common/file_util.h"
#include "common/stats.h"
#include "model/makespan/batch_jobs_file.h"

namespace mr::model {

std::string BatchCluster::Describe() const {
  return std::to_string(workers) + (workers == 1 ? " worker, " : " workers, ") + std::to_string(map_slots) +
         " map and " + std::to_string(reduce_slots) + " reduce slots";
}

bool operator==(const BatchCluster& a, const BatchCluster& b) {
  return a.workers == b.workers && a.map_slots == b.map_slots && a.reduce_slots == b.reduce_slots;
}

namespace {

PlannedOrder Planned(std::span<const BatchJob> jobs, std::span<const StagePair> pairs, std::vector<int> order,
                     SlotShape slots, const BatchSimOptions& sim) {
  PlannedOrder p;
  p.makespan = SimulateValidBatch(jobs, order, slots, sim).makespan;
  p.two_stage = TwoStageMakespan(pairs, order);
  p.order = std::move(order);
  return p;
}

std::string Names(const BatchPlan& plan, const std::vector<int>& order) {
  std::string out;
  for (int i : order) out += (out.empty() ? "" : " ") + plan.jobs[i].name;
  return out;
}

double Below(double value, double reference) { return reference > 0 ? 100 * (1 - value / reference) : 0; }

}  // namespace

Result<BatchPlan> MakeBatchPlan(std::span<const BatchJob> jobs, const BatchCluster& cluster,
                                const PoolsOptions& pools_options) {
  if (jobs.empty()) return Status::InvalidArgument("batch plan: no jobs");
  if (cluster.workers < 1 || cluster.map_slots < 1 || cluster.reduce_slots < 1) {
    return Status::InvalidArgument("batch plan: the cluster needs workers, map and reduce slots >= 1");
  }
  std::vector<JobProfile> profiles;
  for (const BatchJob& j : jobs) {
    MR_RETURN_IF_ERROR(ValidateBatchJob(j));
    profiles.push_back(ProfileOf(j));
  }
  BatchPlan plan;
  plan.cluster = cluster;
  const SlotShape slots = cluster.slots();
  const std::vector<StagePair> pairs = StagePairs(profiles, slots);
  for (size_t i = 0; i < jobs.size(); ++i) {
    PlanJob pj;
    pj.name = jobs[i].name;
    pj.maps = static_cast<int>(jobs[i].map_durations.size());
    pj.reduces = static_cast<int>(jobs[i].reduce_durations.size());
    pj.map_seconds = Mean(jobs[i].map_durations);
    pj.reduce_seconds = Mean(jobs[i].reduce_durations);
    pj.map_stage = pairs[i].map;
    pj.reduce_stage = pairs[i].reduce;
    plan.jobs.push_back(std::move(pj));
  }
  const int n = static_cast<int>(jobs.size());
  std::vector<int> johnson = JohnsonOrder(pairs);
  const BatchSimOptions& sim = pools_options.sim;
  plan.reverse_johnson = Planned(jobs, pairs, Reversed(johnson), slots, sim);
  plan.johnson = Planned(jobs, pairs, std::move(johnson), slots, sim);
  plan.fifo = Planned(jobs, pairs, ArrivalOrder(n), slots, sim);
  MR_ASSIGN_OR_RETURN(PoolsResult pools, BalancedPools(jobs, slots, pools_options));
  plan.variants = DescribePoolsVariants(pools_options);
  plan.pools = std::move(pools.pools);
  plan.pool_names = plan.pools.size() == 1 ? std::vector<std::string>{"all"}
                                           : std::vector<std::string>{"small", "large"};
  for (size_t p = 0; p < plan.pools.size(); ++p) {
    for (int j : plan.pools[p].order) plan.jobs[j].pool = static_cast<int>(p);
  }
  plan.predicted_makespan = pools.makespan;
  plan.split = pools.split;
  plan.simulations = pools.simulations;
  return plan;
}

void PrintBatchPlan(const BatchPlan& plan, std::ostream& out) {
  char line[256];
  out << "# batch plan: " << plan.jobs.size() << " jobs on " << plan.cluster.Describe() << "\n";
  out << "# stages: ARIA estimates (average of the bounds) on the whole cluster; makespans: task-level "
         "simulation, two-stage: the (m, r) abstraction\n";
  out << "# variants: " << (plan.variants.empty() ? "none (the paper's)" : plan.variants) << "\n";
  std::snprintf(line, sizeof line, "%-16s %7s %7s %12s %14s %s\n", "job", "maps", "reduces", "map_stage_s",
                "reduce_stage_s", "pool");
  out << line;
  for (const PlanJob& j : plan.jobs) {
    std::snprintf(line, sizeof line, "%-16s %7d %7d %12.3f %14.3f %s\n", j.name.c_str(), j.maps, j.reduces,
                  j.map_stage, j.reduce_stage, plan.pool_names[j.pool].c_str());
    out << line;
  }
  std::snprintf(line, sizeof line, "%-16s %12s %12s  %s\n", "schedule", "makespan_s", "two_stage_s", "order");
  out << line;
  auto row = [&](const char* name, const PlannedOrder& p) {
    std::snprintf(line, sizeof line, "%-16s %12.3f %12.3f  ", name, p.makespan, p.two_stage);
    out << line << Names(plan, p.order) << "\n";
  };
  row("johnson", plan.johnson);
  row("reverse-johnson", plan.reverse_johnson);
  row("fifo", plan.fifo);
  std::snprintf(line, sizeof line, "%-16s %12.3f %12s  ", "balancedpools", plan.predicted_makespan, "-");
  out << line;
  if (plan.pools.size() == 1) {
    out << "one pool: no split beats Johnson's order (" << plan.simulations << " simulations)\n";
  } else {
    out << "2 pools: the " << plan.split << " jobs with the fewest maps apart (" << plan.simulations
        << " simulations)\n";
  }
  for (size_t p = 0; p < plan.pools.size(); ++p) {
    const Pool& pool = plan.pools[p];
    std::snprintf(line, sizeof line, "  pool %-6s %5d map + %5d reduce slots, makespan %10.3f s, order ",
                  plan.pool_names[p].c_str(), pool.slots.map_slots, pool.slots.reduce_slots, pool.makespan);
    out << line << Names(plan, pool.order) << "\n";
  }
  std::snprintf(line, sizeof line,
                "predicted makespan %.3f s (balancedpools): %.1f%% below johnson's, %.1f%% below reverse johnson's, "
                "%.1f%% below fifo's; johnson %.1f%% below reverse johnson\n",
                plan.predicted_makespan, Below(plan.predicted_makespan, plan.johnson.makespan),
                Below(plan.predicted_makespan, plan.reverse_johnson.makespan),
                Below(plan.predicted_makespan, plan.fifo.makespan),
                Below(plan.johnson.makespan, plan.reverse_johnson.makespan));
  out << line;
}

Result<PlannedOrder> PlanGivenOrder(std::span<const BatchJob> jobs, const BatchCluster& cluster,
                                    std::span<const std::string> order, const BatchSimOptions& sim) {
  std::vector<int> indices;
  std::vector<bool> seen(jobs.size(), false);
  for (const std::string& name : order) {
    auto it = std::find_if(jobs.begin(), jobs.end(), [&](const BatchJob& j) { return j.name == name; });
    if (it == jobs.end()) return Status::InvalidArgument("--order: no job '" + name + "' in the batch");
    const size_t i = static_cast<size_t>(it - jobs.begin());
    if (seen[i]) return Status::InvalidArgument("--order: job '" + name + "' given twice");
    seen[i] = true;
    indices.push_back(static_cast<int>(i));
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!seen[i]) return Status::InvalidArgument("--order: job '" + jobs[i].name + "' is missing");
  }
  std::vector<JobProfile> profiles;
  for (const BatchJob& j : jobs) {
    MR_RETURN_IF_ERROR(ValidateBatchJob(j));
    profiles.push_back(ProfileOf(j));
  }
  return Planned(jobs, StagePairs(profiles, cluster.slots()), std::move(indices), cluster.slots(), sim);
}

namespace {

Result<std::vector<BatchJob>> BatchOf(const BatchPlanOptions& o) {
  if (!o.profiles.empty()) {
    std::vector<BatchJob> jobs;
    for (const JobProfile& p : o.profiles) {
      for (const BatchJob& j : jobs) {
        if (j.name == p.name) return Status::InvalidArgument("--profiles: job '" + p.name + "' given twice");
      }
      jobs.push_back(BatchJobFromProfile(p));
    }
    return jobs;
  }
  if (!o.jobs_file.empty()) return LoadBatchJobs(o.jobs_file);
  MR_ASSIGN_OR_RETURN(std::vector<BatchJob> jobs, GenerateMakespanWorkload(o.workload));
  if (o.mean_tasks) {
    for (BatchJob& j : jobs) {
      j.map_durations.assign(j.map_durations.size(), Mean(j.map_durations));
      if (!j.reduce_durations.empty()) j.reduce_durations.assign(j.reduce_durations.size(), Mean(j.reduce_durations));
    }
  }
  return jobs;
}

}  // namespace

Status RunBatchPlan(const BatchPlanOptions& o, std::ostream& out) {
  MR_ASSIGN_OR_RETURN(std::vector<BatchJob> jobs, BatchOf(o));
  MR_ASSIGN_OR_RETURN(BatchPlan plan, MakeBatchPlan(jobs, o.cluster, o.pools));
  PrintBatchPlan(plan, out);
  if (!o.order.empty()) {
    MR_ASSIGN_OR_RETURN(PlannedOrder given, PlanGivenOrder(jobs, o.cluster, o.order, o.pools.sim));
    char line[128];
    std::snprintf(line, sizeof line, "%-16s %12.3f %12.3f  ", "given order", given.makespan, given.two_stage);
    out << line << Names(plan, given.order) << "\n";
  }
  if (!o.out.empty()) {
    Status written = WriteFileAtomically(o.out, BatchPlanToJson(plan));
    if (!written.ok()) return Status::IoError("cannot write the plan file: " + written.message());
    out << "wrote " << o.out << "\n";
  }
  return Status::Ok();
}

}  // namespace mr::model
