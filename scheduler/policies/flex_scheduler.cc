#include "scheduler/policies/flex_scheduler.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scheduler/util/policy_util.h"

namespace mr::sched {
namespace {

// Epochs are compared on doubles; a call a hair before the boundary still starts the epoch.
constexpr double kEpochSlack = 1e-9;
// A deadline metric's deadline for a job that gave none: never reached in practice.
constexpr double kNeverLate = 1e12;
// Slot-seconds a task counts for while its phase has no estimate.
constexpr double kUnknownTaskSeconds = 1.0;

int Idx(SlotKind k) { return static_cast<int>(k); }

int PoolSlots(const Snapshot& snap, SlotKind kind) {
  int n = 0;
  for (const WorkerView& w : snap.workers) {
    n += std::max(0, kind == SlotKind::kMap      ? w.map_slots
                     : kind == SlotKind::kReduce ? w.reduce_slots
                                                 : w.unified_slots);
  }
  return n;
}

// The counts and the task lists agree on a live snapshot; the larger reading wins otherwise.
int MapsToDo(const JobView& j) {
  return std::max(j.maps_total - j.maps_done,
                  static_cast<int>(j.pending_maps.size() + j.queued_maps.size()) + j.maps_running);
}
int ReducesToDo(const JobView& j) {
  return std::max(j.reduces_total - j.reduces_done, static_cast<int>(j.ready_reduces.size()) + j.reduces_running +
                                                        j.reduces_fetching);
}

bool MapsLeft(const JobView& j) { return MapsToDo(j) > 0; }

double MapWork(const JobView& j) {
  const double tasks = MapsToDo(j);
  if (j.estimate.source == EstimateSource::kNone) return tasks * kUnknownTaskSeconds;
  return std::max(j.estimate.map_seconds_remaining, 1e-3 * tasks);
}

double ReduceWork(const JobView& j) {
  const double tasks = ReducesToDo(j);
  if (j.estimate.reduce_source == EstimateSource::kNone) return tasks * kUnknownTaskSeconds;
  return std::max(j.estimate.reduce_seconds_remaining, 1e-3 * tasks);
}

// The job's tasks of `kind` on slots of `slot`.
int Running(const JobView& j, TaskKind kind, SlotKind slot) {
  int n = 0;
  for (const RunningAttempt& a : j.running) n += a.kind == kind && a.slot == slot;
  return n;
}

// The terms of the job's metric; a deadline or SLA the metric needs and the job lacks is
// put out of reach (the job is never late).
flex::JobTerms Terms(const JobView& j, flex::Metric metric, double work, int cap) {
  flex::JobTerms t;
  t.weight = j.params.weight > 0 ? j.params.weight : 1;
  t.arrival = j.submit_time;
  if (j.params.deadline > 0) t.deadline = j.submit_time + j.params.deadline;
  if (!j.params.sla.empty()) {
    if (auto steps = flex::ParseSla(j.params.sla); steps.ok()) {
      for (flex::SlaStep s : *steps) t.sla.push_back({j.submit_time + s.deadline, s.penalty});
    }
  }
  const flex::MetricInfo& info = flex::InfoOf(metric);
  if (info.needs_deadline && !t.deadline) t.deadline = j.submit_time + kNeverLate;
  if (info.needs_sla && t.sla.empty()) t.sla.push_back({j.submit_time + kNeverLate, 1});
  t.alone = work / std::max(1, cap);
  return t;
}

}  // namespace

std::vector<int> SplitMaxMin(int total, const std::vector<int>& demands) {
  std::vector<int> out(demands.size(), 0);
  std::vector<size_t> open;
  for (size_t i = 0; i < demands.size(); ++i) {
    if (demands[i] > 0) open.push_back(i);
  }
  while (total > 0 && !open.empty()) {
    const int each = std::max(1, total / static_cast<int>(open.size()));
    std::vector<size_t> still;
    for (size_t i : open) {
      const int give = std::min({each, demands[i] - out[i], total});
      out[i] += give;
      total -= give;
      if (out[i] < demands[i]) still.push_back(i);
    }
    open.swap(still);
  }
  return out;
}

std::vector<int> SplitByWeight(int total, const std::vector<int>& demands, const std::vector<double>& weights) {
  std::vector<int> out(demands.size(), 0);
  std::vector<size_t> open;
  for (size_t i = 0; i < demands.size(); ++i) {
    if (demands[i] > 0) open.push_back(i);
  }
  auto give = [&](size_t i, double share) {
    const int g = std::min({static_cast<int>(share), demands[i] - out[i], total});
    out[i] += g;
    total -= g;
  };
  while (total > 0) {
    std::erase_if(open, [&](size_t i) { return out[i] >= demands[i]; });
    if (open.empty()) break;
    double sum = 0;
    for (size_t i : open) sum += weights[i];
    const int before = total;
    for (size_t i : open) give(i, std::floor(before * weights[i] / sum));
    if (total < before) continue;
    std::stable_sort(open.begin(), open.end(), [&](size_t a, size_t b) { return weights[a] > weights[b]; });
    for (size_t i : open) give(i, std::ceil(before * weights[i] / sum));
    break;
  }
  return out;
}

std::vector<FlexScheduler::Member> FlexScheduler::Members(const Snapshot& snap, SlotKind kind) const {
  std::vector<Member> out;
  if (PoolSlots(snap, kind) == 0) return out;
  for (size_t i = 0; i < snap.jobs.size(); ++i) {
    const JobView& j = snap.jobs[i];
    Member m{.job = static_cast<int>(i)};
    const bool maps_left = MapsLeft(j);
    const bool reduces_left = ReducesToDo(j) > 0;
    const bool reduce_phase = reduces_left && (!maps_left || !j.ready_reduces.empty() ||
                                               j.reduces_running + j.reduces_fetching > 0);
    if (kind == SlotKind::kMap || (kind == SlotKind::kUnified && maps_left)) {
      if (!maps_left) continue;
      m.running = Running(j, TaskKind::kMap, kind);
      m.tasks = MapsToDo(j);
      m.work = MapWork(j) + (kind == SlotKind::kUnified ? ReduceWork(j) : 0);
      m.measured = j.maps_done > 0 || (live_.new_phase == FlexLiveOptions::NewPhase::kUnestimated &&
                                       j.estimate.source != EstimateSource::kNone);
    } else {
      if (kind == SlotKind::kReduce ? !reduce_phase : !reduces_left) continue;
      m.running = Running(j, TaskKind::kReduce, kind);
      m.tasks = ReducesToDo(j);
      m.work = ReduceWork(j);
      m.measured = j.reduces_done > 0 || (live_.new_phase == FlexLiveOptions::NewPhase::kUnestimated &&
                                          j.estimate.reduce_source != EstimateSource::kNone);
    }
    out.push_back(m);
  }
  return out;
}

FlexScheduler::Bounds FlexScheduler::PoolBounds(const Snapshot& snap, SlotKind kind,
                                                const std::vector<Member>& members) const {
  const bool reduces = kind == SlotKind::kReduce;
  // Per pool: its jobs here, then its minimum and maximum split among them.
  // limit: the job's own and its pool's maximum (INT_MAX: none); cap: limit and tasks left.
  Bounds b;
  std::vector<int> user_cap(members.size());
  std::vector<int>& cap = b.cap;
  std::vector<int>& min = b.min;
  std::vector<int>& limit = b.limit;
  min.assign(members.size(), 0);
  limit.assign(members.size(), std::numeric_limits<int>::max());
  std::vector<std::pair<std::string, std::vector<size_t>>> by_pool;
  for (size_t k = 0; k < members.size(); ++k) {
    const JobView& j = snap.jobs[members[k].job];
    if (j.params.max_slots > 0) limit[k] = j.params.max_slots;
    user_cap[k] = std::min(members[k].tasks, limit[k]);
    const std::string& pool = j.params.pool.empty() ? std::string("default") : j.params.pool;
    auto it = std::find_if(by_pool.begin(), by_pool.end(), [&](const auto& p) { return p.first == pool; });
    if (it == by_pool.end()) it = by_pool.insert(by_pool.end(), {pool, {}});
    it->second.push_back(k);
  }
  cap = user_cap;
  for (const auto& [pool, ks] : by_pool) {
    const PoolConfig& config = pools_.Lookup(pool);
    const int pool_max = reduces ? config.max_reduces : config.max_maps;
    const int pool_min = reduces ? config.min_reduces : config.min_maps;
    std::vector<int> demand;
    for (size_t k : ks) demand.push_back(user_cap[k]);
    if (pool_max > 0) {
      std::vector<int> share = SplitMaxMin(pool_max, demand);
      for (size_t i = 0; i < ks.size(); ++i) cap[ks[i]] = share[i], limit[ks[i]] = std::min(limit[ks[i]], share[i]);
    }
    std::vector<double> weight;
    for (size_t i = 0; i < ks.size(); ++i) {
      demand[i] = cap[ks[i]];
      const double w = snap.jobs[members[ks[i]].job].params.weight;
      weight.push_back(w > 0 ? w : 1);
    }
    std::vector<int> share = live_.pool_split == FlexLiveOptions::PoolSplit::kWeighted
                                 ? SplitByWeight(pool_min, demand, weight)
                                 : SplitMaxMin(pool_min, demand);
    for (size_t i = 0; i < ks.size(); ++i) min[ks[i]] = share[i];
  }
  return b;
}

void FlexScheduler::Replan(const Snapshot& snap, SlotKind kind, const std::vector<Member>& members, int slots,
                           Decision* d) {
  const Bounds b = PoolBounds(snap, kind, members);
  const std::vector<int>& cap = b.cap;
  const std::vector<int>& min = b.min;
  const std::vector<int>& limit = b.limit;
  flex::FlexProblem problem{.slots = slots, .now = snap.now, .jobs = {}};
  std::vector<size_t> in_problem;
  std::vector<std::string> metric_names;
  for (size_t k = 0; k < members.size(); ++k) {
    if (cap[k] <= 0) continue;
    const JobView& j = snap.jobs[members[k].job];
    flex::Metric metric = metric_;
    if (!j.params.metric.empty()) {
      if (auto m = flex::ParseMetric(j.params.metric); m.ok()) metric = *m;
    }
    int lo = std::min(cap[k], min[k] + j.params.min_slots);
    if (!members[k].measured) lo = std::max(lo, 1);  // a new phase is measured at once
    problem.jobs.push_back({.work = members[k].work, .min_slots = lo, .max_slots = cap[k], .metric = metric,
                            .terms = Terms(j, metric, members[k].work, cap[k])});
    in_problem.push_back(k);
    metric_names.emplace_back(flex::MetricName(metric));
  }
  Plan& plan = plans_[Idx(kind)];
  plan = Plan{};
  for (size_t k = 0; k < members.size(); ++k) plan.jobs.push_back({snap.jobs[members[k].job].id, 0, cap[k], limit[k], 0});
  if (!problem.jobs.empty()) {
    Result<flex::FlexDecision> fd = flex::Allocate(problem, options_);
    if (!fd.ok()) {
      plan.order = "arrival (allocator: " + fd.status().message() + ")";
      for (size_t r = 0; r < in_problem.size(); ++r) plan.jobs[in_problem[r]].rank = static_cast<int>(r);
    } else {
      plan.order = fd->order_name;
      plan.predicted = fd->predicted;
      for (size_t r = 0; r < fd->order.size(); ++r) plan.jobs[in_problem[fd->order[r]]].rank = static_cast<int>(r);
      for (size_t i = 0; i < in_problem.size(); ++i) {
        Planned& p = plan.jobs[in_problem[i]];
        p.alloc = fd->allocation[i];
        d->allocations.push_back({.job = p.job, .slot = kind, .slots = p.alloc, .min_slots = fd->minima[i],
                                  .max_slots = p.cap, .rank = p.rank, .order = plan.order,
                                  .metric = metric_names[i], .predicted = plan.predicted,
                                  .completion = fd->schedule.completion[i]});
      }
    }
  }
  for (size_t k = 0; k < members.size(); ++k) {
    if (cap[k] <= 0) plan.jobs[k].rank = static_cast<int>(members.size());  // capped out: last
  }
  std::sort(plan.jobs.begin(), plan.jobs.end(), [](const Planned& a, const Planned& b) { return a.job < b.job; });
  if (slots > 0) {
    note_ += Format(" %s: %zu jobs on %d slots, order %s, predicted %.4g;", SlotKindName(kind), problem.jobs.size(),
                    slots, plan.order.c_str(), plan.predicted);
  }
}

const FlexScheduler::Planned* FlexScheduler::Find(SlotKind kind, JobId id) const {
  const std::vector<Planned>& jobs = plans_[Idx(kind)].jobs;
  auto it = std::lower_bound(jobs.begin(), jobs.end(), id, [](const Planned& p, JobId v) { return p.job < v; });
  return it != jobs.end() && it->job == id ? &*it : nullptr;
}

void FlexScheduler::Fill(const Snapshot& snap, SlotKind kind, const std::vector<Member>& members,
                         TaskPlacer& placer) {
  // Which task a member places: its phase's (maps while maps are left on unified slots).
  auto place = [&](const Member& m) {
    const bool map = kind == SlotKind::kMap || (kind == SlotKind::kUnified && MapsLeft(snap.jobs[m.job]));
    return map ? placer.PlaceMap(m.job, kind) : placer.PlaceReduce(m.job, kind);
  };
  struct Want {
    int deficit;
    int rank;
    size_t member;
  };
  std::vector<Want> heap;
  std::vector<int> held(members.size()), cap(members.size()), rank(members.size());
  for (size_t k = 0; k < members.size(); ++k) {
    const Planned* p = Find(kind, snap.jobs[members[k].job].id);
    held[k] = members[k].running;
    cap[k] = p != nullptr ? std::min(p->limit, members[k].tasks) : members[k].tasks;
    rank[k] = p != nullptr ? p->rank : static_cast<int>(members.size() + k);
    if (p != nullptr && p->alloc > held[k]) heap.push_back({p->alloc - held[k], rank[k], k});
  }
  auto before = [](const Want& a, const Want& b) { return a.deficit != b.deficit ? a.deficit < b.deficit : a.rank > b.rank; };
  std::make_heap(heap.begin(), heap.end(), before);
  while (!heap.empty() && placer.free(kind) > 0) {
    std::pop_heap(heap.begin(), heap.end(), before);
    Want w = heap.back();
    heap.pop_back();
    if (!place(members[w.member])) continue;  // no task it can start now
    ++held[w.member];
    if (--w.deficit > 0) {
      heap.push_back(w);
      std::push_heap(heap.begin(), heap.end(), before);
    }
  }
  // Slots still free: the winning order, each job up to its maximum.
  std::vector<size_t> by_rank(members.size());
  for (size_t k = 0; k < by_rank.size(); ++k) by_rank[k] = k;
  std::stable_sort(by_rank.begin(), by_rank.end(), [&](size_t a, size_t b) { return rank[a] < rank[b]; });
  for (size_t k : by_rank) {
    while (placer.free(kind) > 0 && held[k] < cap[k] && place(members[k])) ++held[k];
  }
}

Decision FlexScheduler::Schedule(const Snapshot& snap) {
  Decision d;
  // The epoch clock stops while no job is in the system and starts again with the first
  // round that sees one (Schedule's contract in flex_scheduler.h). Live, the master runs
  // rounds before any job arrives and between busy spells (its share refresh); a clock
  // started there would put the epochs at an arbitrary phase to the arrivals, which no
  // prediction or replay could reproduce. The simulator runs no round while idle, so a round
  // none of whose jobs the previous round saw starts the clock again as well.
  bool turnover = true;
  for (const JobView& j : snap.jobs) turnover = turnover && !std::binary_search(seen_.begin(), seen_.end(), j.id);
  seen_.clear();
  for (const JobView& j : snap.jobs) seen_.push_back(j.id);
  std::sort(seen_.begin(), seen_.end());
  if (turnover) {
    started_ = false;
    for (Plan& p : plans_) p = Plan{};
  }
  if (snap.jobs.empty()) {
    d.note = "flex: idle";
    return d;
  }
  const bool new_epoch = !started_ || snap.now >= epoch_start_ + epoch_ * (1 - kEpochSlack);
  if (new_epoch) {
    epoch_start_ = started_ ? epoch_start_ + epoch_ * std::floor((snap.now - epoch_start_) / epoch_ + kEpochSlack)
                            : snap.now;
    started_ = true;
    ++epochs_;
  }
  note_.clear();
  std::vector<Member> members[kPools];
  for (SlotKind kind : {SlotKind::kMap, SlotKind::kReduce, SlotKind::kUnified}) {
    std::vector<Member>& ms = members[Idx(kind)];
    ms = Members(snap, kind);
    // Recompute at an epoch, or (kMembership) when a job or phase entered or left the pool.
    bool same = ms.size() == plans_[Idx(kind)].jobs.size();
    for (size_t k = 0; same && k < ms.size(); ++k) same = Find(kind, snap.jobs[ms[k].job].id) != nullptr;
    const bool membership = live_.replan == FlexLiveOptions::Replan::kMembership && !same;
    if (new_epoch || membership) Replan(snap, kind, ms, PoolSlots(snap, kind), &d);
  }
  {
    TaskPlacer placer(snap, &d);
    for (SlotKind kind : {SlotKind::kReduce, SlotKind::kMap, SlotKind::kUnified}) {
      if (placer.free(kind) > 0) Fill(snap, kind, members[Idx(kind)], placer);
    }
    // Unified slots left: ready reduces of jobs still in their map phase (slow start).
    for (size_t j = 0; j < snap.jobs.size() && placer.free(SlotKind::kUnified) > 0; ++j) {
      while (MapsLeft(snap.jobs[j]) && placer.PlaceReduce(static_cast<int>(j), SlotKind::kUnified)) {
      }
    }
  }
  std::vector<std::pair<JobId, double>> pairs;
  double weights = 0;
  for (const JobView& j : snap.jobs) weights += j.shuffle_bytes_available > 0 ? std::max(j.params.weight, 1e-9) : 0;
  for (const JobView& j : snap.jobs) {
    if (j.shuffle_bytes_available > 0) pairs.emplace_back(j.id, std::max(j.params.weight, 1e-9) / weights);
  }
  AddShares(pairs, &d.shuffle_shares);
  pairs.clear();
  for (const Planned& p : plans_[Idx(SlotKind::kMap)].jobs) {
    if (p.alloc > 0) pairs.emplace_back(p.job, p.alloc);
  }
  AddShares(pairs, &d.map_shares);
  d.note = Format("flex: epoch %llu%s", static_cast<unsigned long long>(epochs_),
                  note_.empty() ? "" : (" planned" + note_).c_str());
  if (!d.note.empty() && d.note.back() == ';') d.note.pop_back();
  return d;
}

}  // namespace mr::sched
