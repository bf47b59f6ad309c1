#include "yarn/yarn_commands.h"

#include <algorithm>

#include "common/file_util.h"
#include "model/makespan/batch_plan.h"
#include "scheduler/policies/capacity_queues.h"
#include "scheduler/policies/pool_table.h"
#include "yarn/capacity_config.h"

namespace mr::yarn {
namespace {

Status Emit(const std::string& text, const std::string& path, std::ostream& out) {
  if (path.empty()) {
    out << text;
    return Status::Ok();
  }
  MR_RETURN_IF_ERROR(WriteStringToFile(path, text));
  out << "wrote " << path << "\n";
  return Status::Ok();
}

Status AddPools(const sched::PoolTable& table, std::vector<sched::PoolConfig>* pools) {
  for (const sched::PoolConfig& p : table.pools()) {
    auto same = [&](const sched::PoolConfig& q) { return q.name == p.name; };
    if (std::any_of(pools->begin(), pools->end(), same)) {
      return Status::InvalidArgument("pool " + p.name + " is given twice");
    }
    pools->push_back(p);
  }
  return Status::Ok();
}

}  // namespace

Status RunFairExport(const FairExportOptions& o, std::ostream& out) {
  std::vector<sched::PoolConfig> pools;
  for (const std::string* file : {&o.pools_file, &o.flex_pools_file}) {
    if (file->empty()) continue;
    MR_ASSIGN_OR_RETURN(sched::PoolTable table, sched::PoolTable::Load(*file));
    MR_RETURN_IF_ERROR(AddPools(table, &pools));
  }
  for (const std::string& spec : o.pool_specs) {
    MR_ASSIGN_OR_RETURN(sched::PoolTable table, sched::PoolTable::Parse("pool " + spec, "--pool"));
    MR_RETURN_IF_ERROR(AddPools(table, &pools));
  }
  if (pools.empty()) return Status::InvalidArgument("no pools: give --pools, --flex-pools or --pool");
  MR_ASSIGN_OR_RETURN(std::string xml, FairAllocationXml(pools, o.format));
  return Emit(xml, o.out, out);
}

Status RunCapacityExport(const CapacityExportOptions& o, std::ostream& out) {
  if (o.queues_file.empty() == o.plan_file.empty()) {
    return Status::InvalidArgument("give one of --queues FILE and --plan PLAN");
  }
  std::vector<sched::QueueConfig> queues;
  CapacityExport cluster{o.map_slots, o.reduce_slots};
  if (!o.queues_file.empty()) {
    MR_ASSIGN_OR_RETURN(sched::CapacityQueues loaded, sched::CapacityQueues::Load(o.queues_file));
    queues = loaded.queues();
  } else {
    MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(o.plan_file));
    MR_ASSIGN_OR_RETURN(model::BatchPlan plan, model::ParseBatchPlan(text, o.plan_file));
    queues = PlanQueues(plan);
    cluster = {plan.cluster.map_slots, plan.cluster.reduce_slots};
  }
  MR_ASSIGN_OR_RETURN(std::string xml, CapacitySchedulerXml(queues, cluster));
  return Emit(xml, o.out, out);
}

Status RunFairImport(const ImportOptions& o, std::ostream& out) {
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(o.file));
  MR_ASSIGN_OR_RETURN(std::vector<FairQueue> queues, ParseFairAllocation(text, o.containers, o.file));
  std::string result = "# pools read from " + o.file + " (mr import yarn-fair)\n";
  std::vector<sched::PoolConfig> pools;
  for (const FairQueue& q : queues) {
    pools.push_back(q.pool);
    if (!q.scheduling_policy.empty() && q.scheduling_policy != "fair") {
      result += "# queue " + q.pool.name + ": schedulingPolicy " + q.scheduling_policy +
                " (mrlab's fair policy shares a pool fairly)\n";
    }
    for (const std::string& e : q.ignored) result += "# queue " + q.pool.name + ": " + e + " ignored\n";
  }
  result += PoolsFileText(pools);
  // The text must be a pools file mrlab reads.
  MR_RETURN_IF_ERROR(sched::PoolTable::Parse(result, o.file).status());
  return Emit(result, o.out, out);
}

Status RunCapacityImport(const ImportOptions& o, std::ostream& out) {
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(o.file));
  std::vector<std::string> ignored;
  MR_ASSIGN_OR_RETURN(std::vector<sched::QueueConfig> queues, ParseCapacityScheduler(text, o.file, &ignored));
  std::string result = "# queues read from " + o.file + " (mr import yarn-capacity)\n";
  for (const std::string& p : ignored) result += "# " + p + " ignored\n";
  result += QueuesFileText(queues);
  MR_RETURN_IF_ERROR(sched::CapacityQueues::Parse(result, o.file).status());
  return Emit(result, o.out, out);
}

}  // namespace mr::yarn
