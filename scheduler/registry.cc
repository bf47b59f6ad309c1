// The table of policies behind CreateScheduler(): name, one-line summary and a
// factory. Adding a policy means adding one row here (no static registration).
#include <array>
#include <string>

#include "scheduler/fair_scheduler.h"
#include "scheduler/fifo_scheduler.h"
#include "scheduler/klps_scheduler.h"
#include "scheduler/max_srpt_scheduler.h"
#include "scheduler/policy_summary.h"
#include "scheduler/pool_table.h"
#include "scheduler/scheduler.h"
#include "scheduler/split_srpt_scheduler.h"

namespace mr::sched {
namespace {

using Factory = Result<std::unique_ptr<Scheduler>> (*)(const SchedulerOptions&);

struct PolicyEntry {
  const char* name;
  const char* summary;
  Factory create;
};

Result<std::unique_ptr<Scheduler>> MakeFifo(const SchedulerOptions&) {
  return std::unique_ptr<Scheduler>(std::make_unique<FifoScheduler>());
}

Result<std::unique_ptr<Scheduler>> MakeFair(const SchedulerOptions& o) {
  PoolTable pools;
  if (!o.pools_file.empty()) {
    auto loaded = PoolTable::Load(o.pools_file);
    if (!loaded.ok()) return loaded.status().WithContext("pools file");
    pools = std::move(*loaded);
  }
  return std::unique_ptr<Scheduler>(std::make_unique<FairScheduler>(std::move(pools)));
}

Result<std::unique_ptr<Scheduler>> MakeKlps(const SchedulerOptions& o) {
  if (o.klps_k < 1) {
    return Status::InvalidArgument("klps: k must be at least 1, got " + std::to_string(o.klps_k));
  }
  return std::unique_ptr<Scheduler>(std::make_unique<KlpsScheduler>(o.klps_k));
}

Result<std::unique_ptr<Scheduler>> MakeMaxSrpt(const SchedulerOptions&) {
  return std::unique_ptr<Scheduler>(std::make_unique<MaxSrptScheduler>());
}

Result<std::unique_ptr<Scheduler>> MakeSplitSrpt(const SchedulerOptions&) {
  return std::unique_ptr<Scheduler>(std::make_unique<SplitSrptScheduler>());
}

constexpr std::array<PolicyEntry, 5> kPolicies = {{
    {"fifo", "Hadoop default: jobs by arrival, each takes all the slots it can use", MakeFifo},
    {"fair", "Hadoop Fair Scheduler: weighted max-min shares, pool minimums", MakeFair},
    {"klps", "k-limited processor sharing of map slots among the first k jobs", MakeKlps},
    {"maxsrpt", "smallest max(remaining map, remaining shuffle) first", MakeMaxSrpt},
    {"splitsrpt", "map-heavy and shuffle-heavy jobs split capacity by imbalance", MakeSplitSrpt},
}};

}  // namespace

Result<std::unique_ptr<Scheduler>> CreateScheduler(std::string_view name,
                                                   const SchedulerOptions& options) {
  for (const PolicyEntry& p : kPolicies) {
    if (name == p.name) return p.create(options);
  }
  std::string known;
  for (const PolicyEntry& p : kPolicies) known += (known.empty() ? "" : ", ") + std::string(p.name);
  return Status::NotFound("unknown policy '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<std::string> KnownPolicies() {
  std::vector<std::string> names;
  for (const PolicyEntry& p : kPolicies) names.emplace_back(p.name);
  return names;
}

std::string_view PolicySummary(std::string_view name) {
  for (const PolicyEntry& p : kPolicies) {
    if (name == p.name) return p.summary;
  }
  return {};
}

}  // namespace mr::sched
