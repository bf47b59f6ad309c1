#include "scheduler/flex/rap.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <string>
#include <utility>

namespace mr::flex {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// F(s+1) - F(s), with a step down from +infinity counted as -infinity.
double Marginal(double before, double after) {
  if (before == kInf) return after == kInf ? 0.0 : -kInf;
  return after - before;
}

double SumOf(std::span<const RapJob> jobs, const RapCost& cost, std::span<const int> slots) {
  double v = 0;
  for (size_t j = 0; j < jobs.size(); ++j) v += cost.F(static_cast<int>(j), slots[j]);
  return v;
}

int ExtraBudget(std::span<const RapJob> jobs, int slots) {
  long long extra = slots;
  for (const RapJob& j : jobs) extra -= j.min;
  return static_cast<int>(extra);
}

// Sum of F over a set of jobs, kept as (finite part, number of infinite terms) so that moving
// a job off +infinity never computes inf - inf.
struct InfSum {
  double finite = 0;
  int infinite = 0;
  void Add(double v) {
    if (v == kInf) {
      ++infinite;
    } else {
      finite += v;
    }
  }
  void Remove(double v) {
    if (v == kInf) {
      --infinite;
    } else {
      finite -= v;
    }
  }
  double Value() const { return infinite > 0 ? kInf : finite; }
};

// The convex greedy restricted to the jobs with in_set[j], for up to `budget` slots beyond
// the minima. picks[k] is the job given the (k+1)-th slot; value[k] the set's objective after
// k slots (value.size() == picks.size() + 1). Stops when no next slot lowers the objective.
struct GreedyRun {
  std::vector<int> picks;
  std::vector<double> value;
};
GreedyRun RunGreedy(std::span<const RapJob> jobs, const RapCost& cost, std::span<const char> in_set,
                    int budget) {
  using Entry = std::pair<double, int>;  // (marginal, job): smallest first, then lower index
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  std::vector<int> s(jobs.size());
  std::vector<double> f(jobs.size());
  InfSum sum;
  for (size_t j = 0; j < jobs.size(); ++j) {
    if (!in_set[j]) continue;
    const int job = static_cast<int>(j);
    s[j] = jobs[j].min;
    f[j] = cost.F(job, s[j]);
    sum.Add(f[j]);
    if (s[j] < jobs[j].max) heap.push({Marginal(f[j], cost.F(job, s[j] + 1)), job});
  }
  GreedyRun run;
  run.value.push_back(sum.Value());
  while (static_cast<int>(run.picks.size()) < budget && !heap.empty()) {
    auto [gain, j] = heap.top();
    if (!(gain < 0)) break;
    heap.pop();
    double next = cost.F(j, s[j] + 1);
    sum.Remove(f[j]);
    sum.Add(next);
    f[j] = next;
    ++s[j];
    run.picks.push_back(j);
    run.value.push_back(sum.Value());
    if (s[j] < jobs[j].max) heap.push({Marginal(f[j], cost.F(j, s[j] + 1)), j});
  }
  return run;
}

// Knapsack over breakpoints for the jobs with in_set[j]: best[x] is the least sum of F with
// at most x slots beyond their minima; choice[k][x] the extra slots job set[k] takes there.
struct Knapsack {
  std::vector<int> set;
  std::vector<double> best;
  std::vector<std::vector<int>> choice;
};
Knapsack RunKnapsack(std::span<const RapJob> jobs, const RapCost& cost,
                     std::span<const char> in_set, int budget) {
  Knapsack k;
  k.best.assign(budget + 1, 0.0);  // no job yet: 0 whatever the budget
  std::vector<double> next(budget + 1);
  for (size_t j = 0; j < jobs.size(); ++j) {
    if (!in_set[j]) continue;
    const int job = static_cast<int>(j);
    const int lo = jobs[j].min, hi = std::min(jobs[j].max, lo + budget);
    std::vector<int> points = cost.Breakpoints(job, lo, hi);
    std::vector<double> value(points.size());
    for (size_t p = 0; p < points.size(); ++p) value[p] = cost.F(job, points[p]);
    std::vector<int>& choice = k.choice.emplace_back(budget + 1, 0);
    for (int x = 0; x <= budget; ++x) {
      double best = kInf;
      int pick = -1;
      for (size_t p = 0; p < points.size() && points[p] - lo <= x; ++p) {
        double v = k.best[x - (points[p] - lo)] + value[p];
        if (pick < 0 || v < best) best = v, pick = static_cast<int>(p);
      }
      next[x] = best;
      choice[x] = points[pick] - lo;
    }
    k.best.swap(next);
    k.set.push_back(job);
  }
  return k;
}

}  // namespace

std::vector<int> RapCost::Breakpoints(int job, int min, int max) const {
  std::vector<int> out{min};
  double low = F(job, min);
  for (int s = min + 1; s <= max; ++s) {
    double v = F(job, s);
    if (v < low) low = v, out.push_back(s);
  }
  return out;
}

Status CheckRap(std::span<const RapJob> jobs, int slots) {
  if (slots < 0) return Status::InvalidArgument("RAP: slots must be >= 0");
  long long minima = 0;
  for (size_t j = 0; j < jobs.size(); ++j) {
    if (jobs[j].min < 0 || jobs[j].max < jobs[j].min) {
      return Status::InvalidArgument("RAP: job " + std::to_string(j) + " needs 0 <= min <= max");
    }
    minima += jobs[j].min;
  }
  if (minima > slots) {
    return Status::InvalidArgument("RAP: minima sum to " + std::to_string(minima) + " > " +
                                   std::to_string(slots) + " slots (normalise them first)");
  }
  return Status::Ok();
}

Result<RapSolution> SolveConvexMinisum(std::span<const RapJob> jobs, const RapCost& cost,
                                       int slots) {
  MR_RETURN_IF_ERROR(CheckRap(jobs, slots));
  std::vector<char> all(jobs.size(), 1);
  GreedyRun run = RunGreedy(jobs, cost, all, ExtraBudget(jobs, slots));
  RapSolution sol;
  for (const RapJob& j : jobs) sol.slots.push_back(j.min);
  for (int j : run.picks) ++sol.slots[j];
  sol.value = run.value.back();
  return sol;
}

Result<RapSolution> SolvePaperDp(std::span<const RapJob> jobs, const RapCost& cost, int slots) {
  MR_RETURN_IF_ERROR(CheckRap(jobs, slots));
  const int budget = ExtraBudget(jobs, slots);
  // best[x]: least sum over the jobs so far using at most x slots beyond their minima.
  std::vector<double> best(budget + 1, 0.0), next(budget + 1);
  std::vector<std::vector<int>> choice(jobs.size(), std::vector<int>(budget + 1, 0));
  for (size_t j = 0; j < jobs.size(); ++j) {
    const int job = static_cast<int>(j);
    const int lo = jobs[j].min, span = std::min(jobs[j].max - lo, budget);
    std::vector<double> f(span + 1);
    for (int e = 0; e <= span; ++e) f[e] = cost.F(job, lo + e);
    for (int x = 0; x <= budget; ++x) {
      double b = kInf;
      int pick = -1;
      for (int e = 0; e <= std::min(span, x); ++e) {
        double v = best[x - e] + f[e];
        if (pick < 0 || v < b) b = v, pick = e;
      }
      next[x] = b;
      choice[j][x] = pick;
    }
    best.swap(next);
  }
  RapSolution sol;
  sol.slots.resize(jobs.size());
  int x = budget;
  for (size_t j = jobs.size(); j-- > 0;) {
    sol.slots[j] = jobs[j].min + choice[j][x];
    x -= choice[j][x];
  }
  sol.value = best[budget];
  return sol;
}

Result<RapSolution> SolveBreakpoints(std::span<const RapJob> jobs, const RapCost& cost, int slots) {
  MR_RETURN_IF_ERROR(CheckRap(jobs, slots));
  const int budget = ExtraBudget(jobs, slots);
  std::vector<char> convex(jobs.size()), other(jobs.size());
  for (size_t j = 0; j < jobs.size(); ++j) (jobs[j].convex ? convex : other)[j] = 1;
  GreedyRun run = RunGreedy(jobs, cost, convex, budget);
  Knapsack knap = RunKnapsack(jobs, cost, other, budget);
  // Split the budget: x slots to the knapsack jobs, the rest to the convex ones.
  auto convex_value = [&](int b) { return run.value[std::min<size_t>(b, run.picks.size())]; };
  int best_x = 0;
  double best = kInf;
  for (int x = 0; x <= budget; ++x) {
    double v = knap.best[x] + convex_value(budget - x);
    if (x == 0 || v < best) best = v, best_x = x;
  }
  RapSolution sol;
  for (const RapJob& j : jobs) sol.slots.push_back(j.min);
  const size_t convex_slots = std::min<size_t>(budget - best_x, run.picks.size());
  for (size_t k = 0; k < convex_slots; ++k) ++sol.slots[run.picks[k]];
  int x = best_x;
  for (size_t k = knap.set.size(); k-- > 0;) {
    int extra = knap.choice[k][x];
    sol.slots[knap.set[k]] += extra;
    x -= extra;
  }
  sol.value = SumOf(jobs, cost, sol.slots);
  return sol;
}

Result<RapSolution> SolveMinimax(std::span<const RapJob> jobs, const RapCost& cost, int slots) {
  MR_RETURN_IF_ERROR(CheckRap(jobs, slots));
  using Entry = std::pair<double, int>;  // (F_j(s_j), -job): largest F first, then lower index
  std::priority_queue<Entry> heap;
  RapSolution sol;
  for (size_t j = 0; j < jobs.size(); ++j) {
    sol.slots.push_back(jobs[j].min);
    if (jobs[j].min < jobs[j].max)
      heap.push({cost.F(static_cast<int>(j), jobs[j].min), -static_cast<int>(j)});
  }
  for (int left = ExtraBudget(jobs, slots); left > 0 && !heap.empty(); --left) {
    int j = -heap.top().second;
    heap.pop();
    ++sol.slots[j];
    if (sol.slots[j] < jobs[j].max) heap.push({cost.F(j, sol.slots[j]), -j});
  }
  sol.value = -kInf;
  for (size_t j = 0; j < jobs.size(); ++j) {
    sol.value = std::max(sol.value, cost.F(static_cast<int>(j), sol.slots[j]));
  }
  return sol;
}

}  // namespace mr::flex
