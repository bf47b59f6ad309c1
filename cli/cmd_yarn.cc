// `mr export yarn-fair|yarn-capacity` and `mr import yarn-fair|yarn-capacity`: mrlab's pools
// and queues as YARN's scheduler configurations and back. The work is yarn/yarn_commands.h.
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "yarn/yarn_commands.h"

namespace mr::cli {
namespace {

void AddContainerFlags(po::options_description& desc, yarn::YarnContainers* c) {
  desc.add_options()
      ("map-container-mb", po::value(&c->map_mb)->default_value(c->map_mb), "a map task's container memory (mapreduce.map.memory.mb)")
      ("reduce-container-mb", po::value(&c->reduce_mb)->default_value(c->reduce_mb),
       "a reduce task's container memory (mapreduce.reduce.memory.mb)")
      ("map-vcores", po::value(&c->map_vcores)->default_value(c->map_vcores), "a map task's vcores (mapreduce.map.cpu.vcores)")
      ("reduce-vcores", po::value(&c->reduce_vcores)->default_value(c->reduce_vcores),
       "a reduce task's vcores (mapreduce.reduce.cpu.vcores)");
}

int Done(const char* prefix, const Status& st) { return st.ok() ? kExitOk : Fail(prefix, st); }

}  // namespace

int ExportYarnFairMain(const Args& args) {
  yarn::FairExportOptions o;
  po::options_description desc("export yarn-fair options");
  desc.add_options()
      ("pools", po::value(&o.pools_file), "a fair scheduler pools file (mr master --pools)")
      ("flex-pools", po::value(&o.flex_pools_file), "a FLEX pools file (mr master --flex-pools): its minima and maxima")
      ("pool", po::value(&o.pool_specs)->composing(), "one pool: \"NAME [min_maps=N] [min_reduces=N] [max_maps=N] "
                                                      "[max_reduces=N] [weight=W]\" (repeatable)")
      ("scheduling-policy", po::value(&o.format.scheduling_policy)->default_value("fair"),
       "each queue's schedulingPolicy: fair, fifo or drf")
      ("out,o", po::value(&o.out), "write the allocation file here (default: standard output)");
  AddContainerFlags(desc, &o.format.containers);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine("mr export yarn-fair (--pools F | --flex-pools F | --pool SPEC...)")))
    return *rc;
  return Done("mr export yarn-fair", yarn::RunFairExport(o, std::cout));
}

int ExportYarnCapacityMain(const Args& args) {
  yarn::CapacityExportOptions o;
  po::options_description desc("export yarn-capacity options");
  desc.add_options()
      ("queues", po::value(&o.queues_file), "a capacity queues file (mr master --policy capacity --queues)")
      ("plan", po::value(&o.plan_file), "a batch plan (mr batch plan --out): its BalancedPools pools as queues")
      ("map-slots", po::value(&o.map_slots), "the cluster's map slots (for queues given in slots)")
      ("reduce-slots", po::value(&o.reduce_slots), "the cluster's reduce slots (for queues given in slots)")
      ("out,o", po::value(&o.out), "write capacity-scheduler.xml here (default: standard output)");
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine("mr export yarn-capacity (--queues FILE | --plan PLAN)"))) return *rc;
  return Done("mr export yarn-capacity", yarn::RunCapacityExport(o, std::cout));
}

int ImportYarnFairMain(const Args& args) {
  yarn::ImportOptions o;
  po::options_description desc("import yarn-fair options");
  desc.add_options()("file", po::value(&o.file)->required(), "a Fair Scheduler allocation file")
      ("out,o", po::value(&o.out), "write the pools file here (default: standard output)");
  AddContainerFlags(desc, &o.containers);
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine("mr import yarn-fair FILE", &pos))) return *rc;
  return Done("mr import yarn-fair", yarn::RunFairImport(o, std::cout));
}

int ImportYarnCapacityMain(const Args& args) {
  yarn::ImportOptions o;
  po::options_description desc("import yarn-capacity options");
  desc.add_options()("file", po::value(&o.file)->required(), "a capacity-scheduler.xml")
      ("out,o", po::value(&o.out), "write the queues file here (default: standard output)");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine("mr import yarn-capacity FILE", &pos))) return *rc;
  return Done("mr import yarn-capacity", yarn::RunCapacityImport(o, std::cout));
}

}  // namespace mr::cli
