#include "experiment/batch_order.h"

#include <cstdio>
#include <cstdlib>

#include "model/makespan/balanced_pools.h"
#include "model/makespan/batch_sim.h"
#include "model/makespan/johnson.h"

namespace mr::experiment {

namespace {

constexpr const char* kPoolNames[] = {"small", "large"};

Result<model::SlotShape> SlotsOf(const ClusterShape& shape) {
  model::SlotShape slots{0, 0};
  for (const WorkerGroup& g : shape.groups) {
    slots.map_slots += g.count * (g.map_slots + g.unified_slots);
    slots.reduce_slots += g.count * (g.reduce_slots + g.unified_slots);
  }
  if (slots.map_slots < 1 || slots.reduce_slots < 1) {
    return Status::InvalidArgument("a batch order needs map and reduce slots");
  }
  return slots;
}

// Each job as the planner sees it: its maps and reduces of its task seconds.
Result<std::vector<model::BatchJob>> BatchJobs(const JobList& jobs, const std::string& order) {
  std::vector<model::BatchJob> out;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const model::TaskJob& j = jobs[i];
    if (j.arrival != 0) {
      return Status::InvalidArgument(order + " orders a batch: every job must arrive at 0 (workload batch: true)");
    }
    model::BatchJob b;
    b.name = "job " + std::to_string(i);
    b.map_durations.assign(j.maps, j.map_seconds);
    b.reduce_durations.assign(j.reducers, j.reduce_seconds);
    out.push_back(std::move(b));
  }
  return out;
}

std::string Indices(const std::vector<int>& order) {
  std::string out;
  for (int i : order) out += (out.empty() ? "" : ",") + std::to_string(i);
  return out;
}

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// BalancedPools' plan: the pools' orders interleaved into arrivals, queues when two pools.
Result<PlannedBatch> PlanPools(const JobList& jobs, const std::vector<model::BatchJob>& batch,
                               model::SlotShape slots) {
  MR_ASSIGN_OR_RETURN(model::PoolsResult pools, model::BalancedPools(batch, slots));
  PlannedBatch plan;
  plan.jobs = jobs;
  plan.planner_makespan = pools.makespan;
  plan.johnson_makespan = pools.johnson_makespan;
  const bool two = pools.pools.size() == 2;
  int position = 0;
  for (size_t k = 0;; ++k) {
    bool any = false;
    for (size_t p = 0; p < pools.pools.size(); ++p) {
      if (k >= pools.pools[p].order.size()) continue;
      any = true;
      model::TaskJob& j = plan.jobs[pools.pools[p].order[k]];
      j.arrival = static_cast<double>(position++) * kBatchOrderStagger;
      if (two) j.params.queue = kPoolNames[p];
    }
    if (!any) break;
  }
  if (!two) {
    plan.pools = "one pool";
    return plan;
  }
  for (size_t p = 0; p < 2; ++p) {
    const model::Pool& pool = pools.pools[p];
    plan.queues += "queue " + std::string(kPoolNames[p]) + " map_slots=" + std::to_string(pool.slots.map_slots) +
                   " reduce_slots=" + std::to_string(pool.slots.reduce_slots) + "\n";
    plan.pools += std::string(p ? "; " : "") + kPoolNames[p] + " " + std::to_string(pool.slots.map_slots) + "+" +
                  std::to_string(pool.slots.reduce_slots) + " slots: " + Indices(pool.order);
  }
  return plan;
}

// Every job alone, one after the other: the sum of each one's makespan on the whole cluster.
Result<PlannedBatch> PlanAlone(const JobList& jobs, const std::vector<model::BatchJob>& batch,
                               model::SlotShape slots) {
  PlannedBatch plan;
  plan.jobs = jobs;
  for (size_t i = 0; i < jobs.size(); ++i) {
    plan.jobs[i].arrival = static_cast<double>(i) * kBatchOrderStagger;
    const int one[] = {static_cast<int>(i)};
    MR_ASSIGN_OR_RETURN(model::BatchSimResult sim, model::SimulateBatch(batch, one, slots));
    plan.planner_makespan += sim.makespan;
  }
  std::vector<model::JobProfile> profiles;
  for (const model::BatchJob& b : batch) profiles.push_back(model::ProfileOf(b));
  const std::vector<int> johnson =
      model::JohnsonOrderOn(profiles, model::ArrivalOrder(static_cast<int>(jobs.size())), slots);
  MR_ASSIGN_OR_RETURN(model::BatchSimResult js, model::SimulateBatch(batch, johnson, slots));
  plan.johnson_makespan = js.makespan;
  plan.pools = "one pool";
  return plan;
}

}  // namespace

bool IsBatchOrder(std::string_view name) {
  return name == "johnson" || name == "reverse-johnson" || name == "balancedpools" || name == "alone";
}

JobList ChainedArrivals(const JobList& jobs, const std::vector<double>& responses) {
  JobList out = jobs;
  double at = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].arrival = at;
    at += responses[i];
  }
  return out;
}

Result<std::vector<int>> BatchOrder(const JobList& jobs, const ClusterShape& shape, const std::string& order) {
  if (order != "johnson" && order != "reverse-johnson") {
    return Status::InvalidArgument("unknown batch order '" + order + "' (known: johnson, reverse-johnson)");
  }
  MR_ASSIGN_OR_RETURN(model::SlotShape slots, SlotsOf(shape));
  MR_ASSIGN_OR_RETURN(std::vector<model::BatchJob> batch, BatchJobs(jobs, order));
  std::vector<model::JobProfile> profiles;
  for (const model::BatchJob& b : batch) profiles.push_back(model::ProfileOf(b));
  std::vector<int> johnson = model::JohnsonOrderOn(profiles, model::ArrivalOrder(static_cast<int>(jobs.size())), slots);
  return order == "johnson" ? johnson : model::Reversed(johnson);
}

Result<JobList> OrderedBatch(const JobList& jobs, const ClusterShape& shape, const std::string& order) {
  if (order.empty()) return jobs;
  MR_ASSIGN_OR_RETURN(std::vector<int> positions, BatchOrder(jobs, shape, order));
  JobList out = jobs;
  for (size_t p = 0; p < positions.size(); ++p) out[positions[p]].arrival = static_cast<double>(p) * kBatchOrderStagger;
  return out;
}

Result<PlannedBatch> PlanBatch(const JobList& jobs, const ClusterShape& shape, const std::string& order) {
  if (order.empty()) return PlannedBatch{jobs, "", 0, 0, ""};
  if (!IsBatchOrder(order)) {
    return Status::InvalidArgument("unknown batch order '" + order +
                                   "' (known: johnson, reverse-johnson, balancedpools, alone)");
  }
  MR_ASSIGN_OR_RETURN(model::SlotShape slots, SlotsOf(shape));
  MR_ASSIGN_OR_RETURN(std::vector<model::BatchJob> batch, BatchJobs(jobs, order));
  if (order == "balancedpools") return PlanPools(jobs, batch, slots);
  if (order == "alone") return PlanAlone(jobs, batch, slots);
  PlannedBatch plan;
  MR_ASSIGN_OR_RETURN(plan.jobs, OrderedBatch(jobs, shape, order));
  MR_ASSIGN_OR_RETURN(std::vector<int> positions, BatchOrder(jobs, shape, order));
  MR_ASSIGN_OR_RETURN(model::BatchSimResult sim, model::SimulateBatch(batch, positions, slots));
  plan.planner_makespan = sim.makespan;
  const std::vector<int> johnson = order == "johnson" ? positions : model::Reversed(positions);
  MR_ASSIGN_OR_RETURN(model::BatchSimResult js, model::SimulateBatch(batch, johnson, slots));
  plan.johnson_makespan = js.makespan;
  plan.pools = "one pool";
  return plan;
}

std::string PlannedBatchText(const PlannedBatch& plan) {
  return "planner_makespan=" + Num(plan.planner_makespan) + "\njohnson_makespan=" + Num(plan.johnson_makespan) +
         "\npools=" + plan.pools + "\n";
}

Result<PlannedBatch> ParsePlannedBatchText(std::string_view text) {
  PlannedBatch plan;
  bool seen[3] = {false, false, false};
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string line(text.substr(start, end - start));
    start = end + 1;
    const size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "pools") {
      plan.pools = value;
      seen[2] = true;
      continue;
    }
    char* stop = nullptr;
    const double v = std::strtod(value.c_str(), &stop);
    if (value.empty() || *stop != '\0') return Status::InvalidArgument("plan: '" + line + "' is not a number");
    if (key == "planner_makespan") plan.planner_makespan = v, seen[0] = true;
    if (key == "johnson_makespan") plan.johnson_makespan = v, seen[1] = true;
  }
  if (!seen[0] || !seen[1] || !seen[2]) {
    return Status::InvalidArgument("plan: needs planner_makespan, johnson_makespan and pools lines");
  }
  return plan;
}

}  // namespace mr::experiment
