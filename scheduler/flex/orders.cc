#include "scheduler/flex/orders.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>
#include <utility>

namespace mr::flex {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double FirstDeadline(const JobTerms& t) {
  if (t.deadline) return *t.deadline;
  if (!t.sla.empty()) return t.sla.front().deadline;
  return kInf;
}

double TimeAtMax(const FlexJob& j) { return j.work > 0 ? j.work / j.max_slots : 0.0; }

double OrderKey(OrderKind kind, const FlexJob& j) {
  switch (kind) {
    case OrderKind::kShortestWork:
      return j.work;
    case OrderKind::kShortestAtMax:
      return TimeAtMax(j);
    case OrderKind::kLongestAtMax:
      return -TimeAtMax(j);
    case OrderKind::kWeightedShortestWork:
      return j.work / EffectiveWeight(j.metric, j.terms);
    case OrderKind::kEarliestDeadline:
      return FirstDeadline(j.terms);
    case OrderKind::kStretchDeadline:
      return j.terms.arrival + (j.terms.alone > 0 ? j.terms.alone : TimeAtMax(j));
    case OrderKind::kNone:
    case OrderKind::kEdfTardyLast:
    case OrderKind::kRapDeadlines:
    case OrderKind::kLawler:
      return 0;
  }
  return 0;
}

std::vector<int> SortBy(std::span<const double> key) {
  std::vector<int> order(key.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key[a] < key[b]; });
  return order;
}

// Gives the slots `sol` leaves unused, up to every job's maximum, one at a time to the job
// whose completion time the slot shortens the most.
void FillUnused(std::span<const FlexJob> jobs, std::span<const RapJob> rap, int slots,
                std::vector<int>* sol) {
  long long used = std::accumulate(sol->begin(), sol->end(), 0LL);
  using Entry = std::pair<double, int>;  // (time saved by one more slot, -job)
  std::priority_queue<Entry> heap;
  auto saving = [&](int j) {
    int s = (*sol)[j];
    return s == 0 ? kInf : jobs[j].work / s - jobs[j].work / (s + 1);
  };
  for (size_t j = 0; j < jobs.size(); ++j) {
    if ((*sol)[j] < rap[j].max) heap.push({saving(static_cast<int>(j)), -static_cast<int>(j)});
  }
  for (; used < slots && !heap.empty(); ++used) {
    int j = -heap.top().second;
    heap.pop();
    ++(*sol)[j];
    if ((*sol)[j] < rap[j].max) heap.push({saving(j), -j});
  }
}

}  // namespace

MetricCost::MetricCost(std::span<const FlexJob> jobs, double now, double origin)
    : jobs_(jobs), now_(now), origin_(origin) {}

double MetricCost::F(int job, int s) const {
  const FlexJob& j = jobs_[job];
  double completion = j.work <= 0 ? now_ : (s <= 0 ? kInf : now_ + j.work / s);
  return Penalty(j.metric, j.terms, completion, origin_);
}

std::vector<int> MetricCost::Breakpoints(int job, int min, int max) const {
  const FlexJob& j = jobs_[job];
  if (InfoOf(j.metric).convex_summand || j.work <= 0) return RapCost::Breakpoints(job, min, max);
  // A step penalty changes only where the completion now + work/s crosses a deadline: the
  // least s meeting deadline d is ceil(work / (d - now)), nudged against rounding.
  std::vector<double> deadlines;
  if (j.terms.deadline) deadlines.push_back(*j.terms.deadline);
  for (const SlaStep& step : j.terms.sla) deadlines.push_back(step.deadline);
  std::vector<int> candidates{min};
  for (double d : deadlines) {
    if (!(d > now_)) continue;
    auto meets = [&](int s) { return s > 0 && !(now_ + j.work / s > d); };
    double need = std::ceil(j.work / (d - now_));
    if (need > max + 1.0) continue;
    int s = std::clamp(static_cast<int>(need), min, max);
    while (s > min && meets(s - 1)) --s;
    while (s < max && !meets(s)) ++s;
    if (meets(s)) candidates.push_back(s);
  }
  std::sort(candidates.begin(), candidates.end());
  std::vector<int> out;
  double low = kInf;
  for (int s : candidates) {
    double v = F(job, s);
    if (out.empty() || v < low) out.push_back(s), low = v;
  }
  return out;
}

std::string_view OrderName(OrderKind kind) {
  switch (kind) {
    case OrderKind::kNone:
      return "none";
    case OrderKind::kShortestWork:
      return "shortest-work";
    case OrderKind::kShortestAtMax:
      return "shortest-at-max";
    case OrderKind::kLongestAtMax:
      return "longest-at-max";
    case OrderKind::kWeightedShortestWork:
      return "weighted-shortest-work";
    case OrderKind::kEarliestDeadline:
      return "earliest-deadline";
    case OrderKind::kStretchDeadline:
      return "stretch-deadline";
    case OrderKind::kEdfTardyLast:
      return "edf-tardy-last";
    case OrderKind::kRapDeadlines:
      return "rap-deadlines";
    case OrderKind::kLawler:
      return "lawler";
  }
  return "?";
}

std::vector<int> StaticOrder(OrderKind kind, std::span<const FlexJob> jobs) {
  std::vector<double> key(jobs.size());
  for (size_t j = 0; j < jobs.size(); ++j) key[j] = OrderKey(kind, jobs[j]);
  return SortBy(key);
}

Result<std::vector<double>> MoldableCompletions(int slots, double now, double origin,
                                                std::span<const FlexJob> jobs,
                                                std::span<const int> minima,
                                                StepSolver step_solver) {
  std::vector<RapJob> rap(jobs.size());
  bool all_convex_minisum = true, one_minimax = true;
  const FlexJob* first_live = nullptr;
  for (size_t j = 0; j < jobs.size(); ++j) {
    const bool live = jobs[j].work > 0;
    rap[j] = {live ? minima[j] : 0, live ? jobs[j].max_slots : 0,
              InfoOf(jobs[j].metric).convex_summand};
    if (!live) continue;
    const MetricInfo& info = InfoOf(jobs[j].metric);
    const bool minimax = info.aggregation == Aggregation::kMinimax;
    all_convex_minisum &= !minimax && info.convex_summand;
    if (first_live == nullptr) first_live = &jobs[j];
    one_minimax &= minimax && jobs[j].metric == first_live->metric;
  }
  MetricCost cost(jobs, now, origin);
  Result<RapSolution> sol = Status::Internal("unset");
  if (one_minimax) {
    sol = SolveMinimax(rap, cost, slots);
  } else if (all_convex_minisum) {
    sol = SolveConvexMinisum(rap, cost, slots);
  } else if (step_solver == StepSolver::kPaperDp) {
    sol = SolvePaperDp(rap, cost, slots);
  } else {
    sol = SolveBreakpoints(rap, cost, slots);
  }
  if (!sol.ok()) return sol.status();
  std::vector<int> s = std::move(sol->slots);
  FillUnused(jobs, rap, slots, &s);
  std::vector<double> completion(jobs.size());
  for (size_t j = 0; j < jobs.size(); ++j) {
    completion[j] = jobs[j].work <= 0 ? now : (s[j] == 0 ? kInf : now + jobs[j].work / s[j]);
  }
  return completion;
}

std::vector<int> CompletionOrder(std::span<const double> completion) { return SortBy(completion); }

std::vector<int> LawlerOrder(std::span<const FlexJob> jobs, int slots, double now, double origin) {
  std::vector<char> placed(jobs.size(), 0);
  double work = 0;
  long long cap = 0;
  for (const FlexJob& j : jobs) work += j.work, cap += j.work > 0 ? j.max_slots : 0;
  std::vector<int> order(jobs.size());
  for (size_t pos = jobs.size(); pos-- > 0;) {
    const double end =
        cap > 0 ? now + work / static_cast<double>(std::min<long long>(cap, slots)) : now;
    int last = -1;
    std::pair<double, double> least{kInf, kInf};
    for (size_t j = 0; j < jobs.size(); ++j) {
      if (placed[j]) continue;
      const JobTerms& t = jobs[j].terms;
      const double c = jobs[j].work > 0 ? end : now;
      // Ties (many jobs on time when tardiness is clipped at 0) go to the least lateness.
      std::pair<double, double> key{Penalty(jobs[j].metric, t, c, origin),
                                    t.deadline ? t.weight * (c - *t.deadline) : c};
      if (last < 0 || key < least) least = key, last = static_cast<int>(j);
    }
    placed[last] = 1;
    order[pos] = last;
    work -= jobs[last].work;
    if (jobs[last].work > 0) cap -= jobs[last].max_slots;
  }
  return order;
}

std::vector<int> MetDeadlineOrder(std::span<const FlexJob> jobs,
                                  std::span<const double> completion) {
  std::vector<double> met(jobs.size(), kInf);
  for (size_t j = 0; j < jobs.size(); ++j) {
    const JobTerms& t = jobs[j].terms;
    if (t.deadline && !(completion[j] > *t.deadline)) met[j] = *t.deadline;
    for (const SlaStep& step : t.sla) {
      if (!(completion[j] > step.deadline)) met[j] = std::min(met[j], step.deadline);
    }
  }
  std::vector<int> order(jobs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return met[a] != met[b] ? met[a] < met[b] : completion[a] < completion[b];
  });
  return order;
}

}  // namespace mr::flex
