// The policy table (scheduler/policy_table.h): each row is a policy's name, one-line
// summary, options and factory. Adding a policy means one file for its class and one
// row here (no static registration). The factory passes the row's name to the class.
#include <climits>
#include <string>

#include "scheduler/policies/asrpt_scheduler.h"
#include "scheduler/policies/fair_scheduler.h"
#include "scheduler/policies/fifo_scheduler.h"
#include "scheduler/policies/klps_scheduler.h"
#include "scheduler/policies/lrpt_scheduler.h"
#include "scheduler/policies/max_srpt_scheduler.h"
#include "scheduler/policy_summary.h"
#include "scheduler/policy_table.h"
#include "scheduler/policies/pool_table.h"
#include "scheduler/scheduler.h"
#include "scheduler/policies/split_srpt_scheduler.h"

namespace mr::sched {
namespace {

template <typename T, typename... Args>
Result<std::unique_ptr<Scheduler>> Make(Args&&... args) {
  return std::unique_ptr<Scheduler>(std::make_unique<T>(std::forward<Args>(args)...));
}

// Options without arguments: the policy takes only its name.
template <typename T>
Result<std::unique_ptr<Scheduler>> MakePlain(std::string_view name, const PolicyOptions&) {
  return Make<T>(name);
}

constexpr OptionSpec kFairOptions[] = {
    {"pools", OptionType::kPath, nullptr, "pools file (minimum shares and weights, docs/policies.md)"},
};

Result<std::unique_ptr<Scheduler>> MakeFair(std::string_view name, const PolicyOptions& o) {
  const char* pools_file = kFairOptions[0].name;
  PoolTable pools;
  if (o.Has(pools_file) && !o.String(pools_file).empty()) {
    auto loaded = PoolTable::Load(o.String(pools_file));
    if (!loaded.ok()) return loaded.status().WithContext("pools file");
    pools = std::move(*loaded);
  }
  return Make<FairScheduler>(name, std::move(pools));
}

constexpr OptionSpec kKlpsOptions[] = {
    {"klps-k", OptionType::kInt, "100", "at most k jobs share the map slots", 1, INT_MAX},
};

Result<std::unique_ptr<Scheduler>> MakeKlps(std::string_view name, const PolicyOptions& o) {
  return Make<KlpsScheduler>(name, static_cast<int>(o.Int(kKlpsOptions[0].name)));
}

// The rate an uncapped worker link is scored at when ranking by shuffle size. Option
// names are unique across policies, so each SRPT policy has its own.
constexpr const char* kLinkRateHelp =
    "bytes/s an uncapped worker link counts as in job sizes (e.g. a calibrated rate); "
    "not given: uncapped links make the shuffle free (y = 0)";
constexpr OptionSpec kMaxSrptOptions[] = {
    {"maxsrpt-link-rate", OptionType::kBytes, nullptr, kLinkRateHelp, 1, 1e15},
};
constexpr OptionSpec kSplitSrptOptions[] = {
    {"splitsrpt-link-rate", OptionType::kBytes, nullptr, kLinkRateHelp, 1, 1e15},
};

template <typename T, const OptionSpec& kRate>
Result<std::unique_ptr<Scheduler>> MakeSrpt(std::string_view name, const PolicyOptions& o) {
  double rate = o.Has(kRate.name) ? static_cast<double>(o.Int(kRate.name)) : 0;
  return Make<T>(name, rate);
}

constexpr OptionSpec kAsrptOptions[] = {
    {"asrpt-round", OptionType::kDuration, "1s",
     "length of the paper's time slot: the allocation is recomputed once per round", 1e-3, 86400},
};

Result<std::unique_ptr<Scheduler>> MakeAsrpt(std::string_view name, const PolicyOptions& o) {
  return Make<AsrptScheduler>(name, o.Double(kAsrptOptions[0].name));
}

constexpr PolicyRow kPolicies[] = {
    {"fifo", "Hadoop default: jobs by arrival, each takes all the slots it can use", {},
     MakePlain<FifoScheduler>},
    {"fair", "Hadoop Fair Scheduler: weighted max-min shares, pool minimums", kFairOptions, MakeFair},
    {"klps", "k-limited processor sharing of map slots among the first k jobs", kKlpsOptions, MakeKlps},
    {"maxsrpt", "smallest max(remaining map, remaining shuffle) first", kMaxSrptOptions,
     MakeSrpt<MaxSrptScheduler, kMaxSrptOptions[0]>},
    {"splitsrpt", "map-heavy and shuffle-heavy jobs split capacity by imbalance", kSplitSrptOptions,
     MakeSrpt<SplitSrptScheduler, kSplitSrptOptions[0]>},
    {"asrpt", "ASRPT on unified slots: Algorithm 1 each round over the whole cluster",
     kAsrptOptions, MakeAsrpt},
    {"lrpt", "largest remaining (map + reduce) work first, work-conserving", {},
     MakePlain<LrptScheduler>},
};

}  // namespace

std::span<const PolicyRow> PolicyTable() { return kPolicies; }

const PolicyRow* FindPolicy(std::string_view name) {
  for (const PolicyRow& p : kPolicies) {
    if (name == p.name) return &p;
  }
  return nullptr;
}

std::string PolicyNameList(std::string_view separator) {
  std::string list;
  for (const PolicyRow& p : kPolicies) {
    if (!list.empty()) list += separator;
    list += p.name;
  }
  return list;
}

Status UnknownPolicy(std::string_view name) {
  return Status::NotFound("unknown policy '" + std::string(name) + "' (known: " + PolicyNameList() + ")");
}

Result<PolicyOptions> ResolvePolicyOptions(std::string_view name, const PolicyOptions& given) {
  const PolicyRow* row = FindPolicy(name);
  if (row == nullptr) return UnknownPolicy(name);
  return ResolveOptions(row->name, row->options, given);
}

Result<std::unique_ptr<Scheduler>> CreateScheduler(std::string_view name, const PolicyOptions& options) {
  const PolicyRow* row = FindPolicy(name);
  if (row == nullptr) return UnknownPolicy(name);
  MR_ASSIGN_OR_RETURN(PolicyOptions resolved, ResolveOptions(row->name, row->options, options));
  return row->create(row->name, resolved);
}

std::vector<std::string> KnownPolicies() {
  std::vector<std::string> names;
  for (const PolicyRow& p : kPolicies) names.emplace_back(p.name);
  return names;
}

std::string_view DefaultPolicy() { return kPolicies[0].name; }

std::string_view PolicySummary(std::string_view name) {
  const PolicyRow* row = FindPolicy(name);
  return row == nullptr ? std::string_view() : row->summary;
}

}  // namespace mr::sched
