// The policy table (scheduler/policy_table.h): each built-in row is a policy's name,
// one-line summary, options, factory and traits. Adding a policy means one file for its
// class and one row here (no static registration); rows added at run time live apart,
// behind a mutex. The factory passes the row's name to the class.
#include <climits>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include "scheduler/policies/asrpt_scheduler.h"
#include "scheduler/policies/capacity_scheduler.h"
#include "scheduler/policies/fair_scheduler.h"
#include "scheduler/policies/fifo_scheduler.h"
#include "scheduler/policies/flex_scheduler.h"
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
    {"asrpt-virtual", OptionType::kString, "arrivals",
     "jobs the virtual SRPT schedule serves: arrivals (the paper's: every arrived job until its "
     "virtual work is done) or present (variant: only jobs still in the system)"},
};

Result<std::unique_ptr<Scheduler>> MakeAsrpt(std::string_view name, const PolicyOptions& o) {
  const std::string& jobs = o.String(kAsrptOptions[1].name);
  if (jobs != "arrivals" && jobs != "present") {
    return Status::InvalidArgument("asrpt-virtual '" + jobs + "': expected arrivals or present");
  }
  return Make<AsrptScheduler>(name, o.Double(kAsrptOptions[0].name),
                              jobs == "arrivals" ? VirtualSrpt::Membership::kArrivals
                                                 : VirtualSrpt::Membership::kPresent);
}

constexpr OptionSpec kFlexOptions[] = {
    {"flex-epoch", OptionType::kDuration, "1s",
     "FLEX's epoch: the allocations are recomputed once per epoch (also at job or phase changes under "
     "flex-replan membership)",
     1e-3, 86400},
    {"flex-metric", OptionType::kString, "response-time",
     "the metric of jobs that name none (--metric): response-time, weighted-response-time, stretch, makespan, "
     "max-stretch, tardy-jobs, weighted-tardy-jobs, tardiness, max-tardiness, lateness, max-lateness, sla"},
    {"flex-pools", OptionType::kPath, nullptr,
     "pools file: minimum and maximum slots per pool (min_maps, max_maps, min_reduces, max_reduces)"},
    {"flex-replan", OptionType::kString, "epoch",
     "when the allocations are recomputed: epoch (at each epoch, the paper) or membership (also at once when a "
     "job or phase enters or leaves a pool)"},
    {"flex-new-phase", OptionType::kString, "always",
     "which new phase gets at least 1 slot to be measured: always (the paper) or unestimated (only one without "
     "an estimate: no hint or profile)"},
    {"flex-pool-split", OptionType::kString, "weighted",
     "how a pool's minimum is split among its jobs: weighted (by job weight, as Hadoop's Fair Scheduler, the "
     "paper's platform) or even (max-min in whole slots, every job alike)"},
};

Result<std::unique_ptr<Scheduler>> MakeFlex(std::string_view name, const PolicyOptions& o) {
  Result<flex::Metric> metric = flex::ParseMetric(o.String(kFlexOptions[1].name));
  if (!metric.ok()) return metric.status().WithContext("--flex-metric");
  PoolTable pools;
  if (o.Has(kFlexOptions[2].name) && !o.String(kFlexOptions[2].name).empty()) {
    auto loaded = PoolTable::Load(o.String(kFlexOptions[2].name));
    if (!loaded.ok()) return loaded.status().WithContext("pools file");
    pools = std::move(*loaded);
  }
  FlexLiveOptions live;
  const std::string replan = o.String(kFlexOptions[3].name);
  if (replan != "epoch" && replan != "membership") {
    return Status::InvalidArgument("--flex-replan '" + replan + "': expected epoch or membership");
  }
  live.replan = replan == "epoch" ? FlexLiveOptions::Replan::kEpoch : FlexLiveOptions::Replan::kMembership;
  const std::string new_phase = o.String(kFlexOptions[4].name);
  if (new_phase != "always" && new_phase != "unestimated") {
    return Status::InvalidArgument("--flex-new-phase '" + new_phase + "': expected always or unestimated");
  }
  live.new_phase =
      new_phase == "always" ? FlexLiveOptions::NewPhase::kAlways : FlexLiveOptions::NewPhase::kUnestimated;
  const std::string split = o.String(kFlexOptions[5].name);
  if (split != "weighted" && split != "even") {
    return Status::InvalidArgument("--flex-pool-split '" + split + "': expected weighted or even");
  }
  live.pool_split = split == "weighted" ? FlexLiveOptions::PoolSplit::kWeighted : FlexLiveOptions::PoolSplit::kEven;
  return Make<FlexScheduler>(name, o.Double(kFlexOptions[0].name), *metric, std::move(pools), flex::FlexOptions{},
                             live);
}

constexpr OptionSpec kCapacityOptions[] = {
    {"queues", OptionType::kPath, nullptr,
     "queues file: named queues with a guaranteed share of the slots or a worker label "
     "(docs/policies.md, capacity); none: one queue, default, with every slot"},
};

Result<std::unique_ptr<Scheduler>> MakeCapacity(std::string_view name, const PolicyOptions& o) {
  const char* file = kCapacityOptions[0].name;
  CapacityQueues queues;
  if (o.Has(file) && !o.String(file).empty()) {
    auto loaded = CapacityQueues::Load(o.String(file));
    if (!loaded.ok()) return loaded.status().WithContext("capacity queues file");
    queues = std::move(*loaded);
  }
  return Make<CapacityScheduler>(name, std::move(queues));
}

const PolicyRow* FindPolicyIn(std::span<const PolicyRow> rows, std::string_view name) {
  for (const PolicyRow& p : rows) {
    if (name == p.name) return &p;
  }
  return nullptr;
}

// The built-in rows. Traits: scheduler/policy_table.h; who reads each: docs/policies.md,
// "Adding a policy".
constexpr PolicyRow kPolicies[] = {
    {"fifo", "Hadoop default: jobs by arrival, each takes all the slots it can use", {},
     MakePlain<FifoScheduler>, {.fluid = "fifo", .bound = Bound::kSlottedSrpt, .uses_size_estimates = false}},
    {"fair", "Hadoop Fair Scheduler: weighted max-min shares, pool minimums", kFairOptions, MakeFair,
     {.memory = RoundMemory::kServiceTurns, .fluid = "ps", .bound = Bound::kSlottedSrpt, .uses_size_estimates = false}},
    {"klps", "k-limited processor sharing of map slots among the first k jobs", kKlpsOptions, MakeKlps,
     {.work_conserving = false, .memory = RoundMemory::kServiceTurns, .fluid = "klps",
      .bound = Bound::kSlottedSrpt, .uses_size_estimates = false}},
    {"maxsrpt", "smallest max(remaining map, remaining shuffle) first", kMaxSrptOptions,
     MakeSrpt<MaxSrptScheduler, kMaxSrptOptions[0]>, {.fluid = "maxsrpt", .bound = Bound::kSlottedSrpt}},
    {"splitsrpt", "map-heavy and shuffle-heavy jobs split capacity by imbalance", kSplitSrptOptions,
     MakeSrpt<SplitSrptScheduler, kSplitSrptOptions[0]>,
     {.memory = RoundMemory::kOther, .fluid = "splitsrpt", .bound = Bound::kSlottedSrpt}},
    {"asrpt", "ASRPT on unified slots: Algorithm 1 each round over the whole cluster",
     kAsrptOptions, MakeAsrpt,
     {.reduces_wait_for_maps = true, .memory = RoundMemory::kOther, .round_option = kAsrptOptions[0].name,
      .bound = Bound::kSlottedSrpt}},
    {"lrpt", "largest remaining (map + reduce) work first, work-conserving", {},
     MakePlain<LrptScheduler>, {.reduces_wait_for_maps = true, .bound = Bound::kSlottedSrpt}},
    {"flex", "FLEX: each epoch, slots above the minima placed to optimise the jobs' chosen metric",
     kFlexOptions, MakeFlex,
     {.memory = RoundMemory::kOther, .round_option = kFlexOptions[0].name, .bound = Bound::kSlottedSrpt}},
    // Not work-conserving: a max_capacity, or a queue bound to labelled workers, may leave a
    // slot idle while another queue's task waits (docs/policies.md, capacity).
    {"capacity", "Hadoop Capacity Scheduler: named queues with guaranteed slot shares, FIFO in each",
     kCapacityOptions, MakeCapacity, {.work_conserving = false, .bound = Bound::kSlottedSrpt}},
};

// Rows registered at run time (RegisterPolicy). Each is heap-allocated and kept until exit,
// also once removed, so that a pointer or reference handed out never dangles.
struct Registered {
  std::mutex mu;
  std::vector<std::unique_ptr<PolicyRow>> rows;     // in the table; guarded by mu
  std::vector<std::unique_ptr<PolicyRow>> removed;  // out of it, still allocated; guarded by mu
};

Registered& Extra() {
  static Registered* registered = new Registered();  // never destroyed: used until exit
  return *registered;
}

const PolicyRow* FindRegisteredLocked(Registered& r, std::string_view name) {
  for (const auto& row : r.rows) {
    if (name == row->name) return row.get();
  }
  return nullptr;
}

bool DeclaresOption(const PolicyRow& row, const char* option) {
  for (const OptionSpec& o : row.options) {
    if (std::string_view(o.name) == option) return true;
  }
  return false;
}

// Why `row` cannot join the table, or Ok. REQUIRES: the registered rows' lock is held.
Status CheckNewRowLocked(Registered& r, const PolicyRow& row) {
  if (row.name == nullptr || *row.name == '\0' || row.summary == nullptr || row.create == nullptr) {
    return Status::InvalidArgument("a policy row needs a name, a summary and a factory");
  }
  const std::string name = row.name;
  if (FindPolicyIn(kPolicies, name) != nullptr || FindRegisteredLocked(r, name) != nullptr) {
    return Status::AlreadyExists("policy '" + name + "' is already in the table");
  }
  if (row.traits.round_option != nullptr && !DeclaresOption(row, row.traits.round_option)) {
    return Status::InvalidArgument("policy " + name + ": its round option '" + row.traits.round_option +
                                   "' is not one of its options");
  }
  auto taken = [&](const PolicyRow& other, const OptionSpec& o) {
    return DeclaresOption(other, o.name)
               ? Status::InvalidArgument("policy " + name + ": option '" + o.name + "' is policy " +
                                         other.name + "'s (option names are flags, unique across policies)")
               : Status::Ok();
  };
  for (const OptionSpec& o : row.options) {
    for (const PolicyRow& other : kPolicies) MR_RETURN_IF_ERROR(taken(other, o));
    for (const auto& other : r.rows) MR_RETURN_IF_ERROR(taken(*other, o));
  }
  return Status::Ok();
}

}  // namespace

std::span<const PolicyRow> BuiltinPolicies() { return kPolicies; }

std::vector<PolicyRowRef> PolicyTable() {
  std::vector<PolicyRowRef> rows(std::begin(kPolicies), std::end(kPolicies));
  Registered& r = Extra();
  std::lock_guard<std::mutex> lock(r.mu);
  for (const auto& row : r.rows) rows.emplace_back(*row);
  return rows;
}

const PolicyRow* FindPolicy(std::string_view name) {
  if (const PolicyRow* row = FindPolicyIn(kPolicies, name)) return row;
  Registered& r = Extra();
  std::lock_guard<std::mutex> lock(r.mu);
  return FindRegisteredLocked(r, name);
}

Status RegisterPolicy(const PolicyRow& row) {
  Registered& r = Extra();
  std::lock_guard<std::mutex> lock(r.mu);
  MR_RETURN_IF_ERROR(CheckNewRowLocked(r, row));
  r.rows.push_back(std::make_unique<PolicyRow>(row));
  return Status::Ok();
}

Status UnregisterPolicy(std::string_view name) {
  Registered& r = Extra();
  std::lock_guard<std::mutex> lock(r.mu);
  for (auto it = r.rows.begin(); it != r.rows.end(); ++it) {
    if (name == (*it)->name) {
      r.removed.push_back(std::move(*it));
      r.rows.erase(it);
      return Status::Ok();
    }
  }
  return Status::NotFound("no registered policy '" + std::string(name) + "'");
}

ScopedPolicyRegistration::ScopedPolicyRegistration(const PolicyRow& row)
    : name_(row.name != nullptr ? row.name : ""), status_(RegisterPolicy(row)) {}

ScopedPolicyRegistration::~ScopedPolicyRegistration() {
  if (status_.ok()) (void)UnregisterPolicy(name_);
}

std::string PolicyNameList(std::string_view separator) {
  std::string list;
  for (const PolicyRow& p : PolicyTable()) {
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
  for (const PolicyRow& p : PolicyTable()) names.emplace_back(p.name);
  return names;
}

std::string_view DefaultPolicy() { return kPolicies[0].name; }

std::string_view PolicySummary(std::string_view name) {
  const PolicyRow* row = FindPolicy(name);
  return row == nullptr ? std::string_view() : row->summary;
}

}  // namespace mr::sched
