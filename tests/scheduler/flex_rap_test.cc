// Each RAP solver against brute force on random small instances: convex minisum, arbitrary
// (non-convex) minisum, minimax, and the FLEX metrics' own summands.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "scheduler/flex/orders.h"
#include "scheduler/flex/rap.h"

namespace mr::flex {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// F_j given as a table per job, index s.
class TableCost : public RapCost {
 public:
  explicit TableCost(std::vector<std::vector<double>> f) : f_(std::move(f)) {}
  double F(int job, int s) const override { return f_[job][s]; }

 private:
  std::vector<std::vector<double>> f_;
};

// The optimum by enumerating every feasible allocation.
double BruteForce(const std::vector<RapJob>& jobs, const RapCost& cost, int slots, bool minimax) {
  double best = kInf;
  std::vector<int> s(jobs.size());
  auto rec = [&](auto&& self, size_t j, int left) -> void {
    if (j == jobs.size()) {
      double v = minimax ? -kInf : 0;
      for (size_t k = 0; k < jobs.size(); ++k) {
        double f = cost.F(static_cast<int>(k), s[k]);
        v = minimax ? std::max(v, f) : v + f;
      }
      best = std::min(best, v);
      return;
    }
    for (int x = jobs[j].min; x <= jobs[j].max && x <= left; ++x) {
      s[j] = x;
      self(self, j + 1, left - x);
    }
  };
  rec(rec, 0, slots);
  return best;
}

void ExpectFeasible(const RapSolution& sol, const std::vector<RapJob>& jobs, int slots) {
  int sum = 0;
  for (size_t j = 0; j < jobs.size(); ++j) {
    EXPECT_GE(sol.slots[j], jobs[j].min);
    EXPECT_LE(sol.slots[j], jobs[j].max);
    sum += sol.slots[j];
  }
  EXPECT_LE(sum, slots);
}

struct Instance {
  std::vector<RapJob> jobs;
  int slots;
};

// 1-4 jobs, minima 0-2, maxima up to 6, 0-10 slots beyond the minima.
Instance RandomInstance(std::mt19937* rng) {
  std::uniform_int_distribution<int> n(1, 4), lo(0, 2), room(0, 4), extra(0, 10);
  Instance in;
  int minima = 0;
  for (int j = n(*rng); j > 0; --j) {
    RapJob r;
    r.min = lo(*rng);
    r.max = r.min + room(*rng);
    minima += r.min;
    in.jobs.push_back(r);
  }
  in.slots = minima + extra(*rng);
  return in;
}

// Convex: increasing random marginals (some positive, so the optimum may leave slots unused).
std::vector<double> ConvexTable(int max, std::mt19937* rng) {
  std::uniform_real_distribution<double> u(-10, 3);
  std::vector<double> d(max), f(max + 1);
  for (double& x : d) x = u(*rng);
  std::sort(d.begin(), d.end());
  f[0] = u(*rng) + 20;
  for (int s = 1; s <= max; ++s) f[s] = f[s - 1] + d[s - 1];
  return f;
}

std::vector<double> AnyTable(int max, std::mt19937* rng) {
  std::uniform_int_distribution<int> u(0, 9);  // integers: ties happen
  std::vector<double> f(max + 1);
  for (double& x : f) x = u(*rng);
  return f;
}

std::vector<double> NonIncreasingTable(int max, std::mt19937* rng) {
  std::vector<double> f = AnyTable(max, rng);
  std::sort(f.rbegin(), f.rend());
  return f;
}

TEST(FlexRapTest, ConvexGreedyMatchesBruteForce) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 500; ++trial) {
    Instance in = RandomInstance(&rng);
    std::vector<std::vector<double>> f;
    for (const RapJob& j : in.jobs) f.push_back(ConvexTable(j.max, &rng));
    TableCost cost(f);
    auto sol = SolveConvexMinisum(in.jobs, cost, in.slots);
    ASSERT_TRUE(sol.ok());
    ExpectFeasible(*sol, in.jobs, in.slots);
    EXPECT_NEAR(sol->value, BruteForce(in.jobs, cost, in.slots, false), 1e-9) << "trial " << trial;
  }
}

TEST(FlexRapTest, DpAndBreakpointsMatchBruteForceOnAnyFunctions) {
  std::mt19937 rng(2);
  for (int trial = 0; trial < 500; ++trial) {
    Instance in = RandomInstance(&rng);
    std::vector<std::vector<double>> f;
    for (RapJob& j : in.jobs) {
      j.convex = rng() % 2 == 0;  // a mix: convex jobs go to the greedy part
      f.push_back(j.convex ? ConvexTable(j.max, &rng) : AnyTable(j.max, &rng));
    }
    TableCost cost(f);
    double brute = BruteForce(in.jobs, cost, in.slots, false);
    auto dp = SolvePaperDp(in.jobs, cost, in.slots);
    auto bp = SolveBreakpoints(in.jobs, cost, in.slots);
    ASSERT_TRUE(dp.ok() && bp.ok());
    ExpectFeasible(*dp, in.jobs, in.slots);
    ExpectFeasible(*bp, in.jobs, in.slots);
    EXPECT_NEAR(dp->value, brute, 1e-9) << "trial " << trial;
    EXPECT_NEAR(bp->value, brute, 1e-9) << "trial " << trial;
  }
}

TEST(FlexRapTest, MinimaxTransformMatchesBruteForce) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 500; ++trial) {
    Instance in = RandomInstance(&rng);
    std::vector<std::vector<double>> f;
    for (const RapJob& j : in.jobs) f.push_back(NonIncreasingTable(j.max, &rng));
    TableCost cost(f);
    auto sol = SolveMinimax(in.jobs, cost, in.slots);
    ASSERT_TRUE(sol.ok());
    ExpectFeasible(*sol, in.jobs, in.slots);
    EXPECT_DOUBLE_EQ(sol->value, BruteForce(in.jobs, cost, in.slots, true)) << "trial " << trial;
  }
}

// Random FLEX jobs at now = 1 for one metric; minima may be 0 (a job that never finishes).
std::vector<FlexJob> RandomJobs(Metric metric, std::mt19937* rng, std::vector<RapJob>* rap,
                                int* slots) {
  std::uniform_real_distribution<double> work(1, 30), when(1, 12), w(0.1, 2);
  Instance in = RandomInstance(rng);
  std::vector<FlexJob> jobs;
  for (RapJob& r : in.jobs) {
    if (r.max == 0) r.max = 1;
    FlexJob j;
    j.work = work(*rng);
    j.min_slots = r.min;
    j.max_slots = r.max;
    j.metric = metric;
    j.terms.arrival = when(*rng) - 1;
    j.terms.weight = w(*rng);
    j.terms.deadline = when(*rng);
    j.terms.alone = j.work / r.max;
    double d = when(*rng), p = w(*rng);
    for (int k = 0; k < 3; ++k, d += when(*rng), p += w(*rng)) j.terms.sla.push_back({d, p});
    r.convex = InfoOf(metric).convex_summand;
    jobs.push_back(j);
  }
  *rap = in.jobs;
  *slots = in.slots;
  return jobs;
}

TEST(FlexRapTest, MetricSummandsAgainstBruteForce) {
  std::mt19937 rng(4);
  for (const MetricInfo& info : MetricTable()) {
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<RapJob> rap;
      int slots = 0;
      std::vector<FlexJob> jobs = RandomJobs(info.metric, &rng, &rap, &slots);
      MetricCost cost(jobs, 1, 0);
      const bool minimax = info.aggregation == Aggregation::kMinimax;
      double brute = BruteForce(rap, cost, slots, minimax);
      std::vector<Result<RapSolution>> sols;
      if (minimax) {
        sols.push_back(SolveMinimax(rap, cost, slots));
      } else {
        if (info.convex_summand) sols.push_back(SolveConvexMinisum(rap, cost, slots));
        sols.push_back(SolvePaperDp(rap, cost, slots));
        sols.push_back(SolveBreakpoints(rap, cost, slots));
      }
      for (const auto& sol : sols) {
        ASSERT_TRUE(sol.ok());
        if (std::isinf(brute)) {
          EXPECT_EQ(sol->value, brute);
        } else {
          EXPECT_NEAR(sol->value, brute, 1e-9 * (1 + std::abs(brute)))
              << info.name << " trial " << trial;
        }
      }
    }
  }
}

// Tardiness w max(0, now + W/s - d) is convex in s (a maximum of two convex functions), so
// the greedy is exact for it (the paper puts it with the dynamic programme). The number of
// tardy jobs is not convex: here no single slot makes a job on time, so the greedy sees no
// gain and stops with both jobs tardy, while all 4 slots to the first job make its deadline.
TEST(FlexRapTest, TardinessIsConvexTardyJobsIsNot) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> work(1, 50), d(0.5, 20), w(0.1, 3);
  for (int trial = 0; trial < 1000; ++trial) {
    std::vector<FlexJob> jobs(1);
    jobs[0].work = work(rng);
    jobs[0].metric = Metric::kTardiness;
    jobs[0].terms.deadline = d(rng);
    jobs[0].terms.weight = w(rng);
    MetricCost cost(jobs, 0, 0);
    for (int s = 2; s < 40; ++s) {
      double second = cost.F(0, s + 1) - 2 * cost.F(0, s) + cost.F(0, s - 1);
      ASSERT_GE(second, -1e-9) << "trial " << trial << " s " << s;
    }
  }
  std::vector<FlexJob> jobs(2);
  for (FlexJob& j : jobs) {
    j.work = 4;
    j.max_slots = 4;
    j.metric = Metric::kTardyJobs;
    j.terms.deadline = 1;
  }
  jobs[1].work = 4.4;  // greedy ties broken the same way every run
  std::vector<RapJob> rap(2, RapJob{0, 4, false});
  MetricCost cost(jobs, 0, 0);
  auto greedy = SolveConvexMinisum(rap, cost, 4);
  auto dp = SolvePaperDp(rap, cost, 4);
  ASSERT_TRUE(greedy.ok() && dp.ok());
  EXPECT_DOUBLE_EQ(dp->value, 1);
  EXPECT_DOUBLE_EQ(greedy->value, 2);
}

TEST(FlexRapTest, RejectsMinimaAboveSlots) {
  std::vector<RapJob> rap = {{3, 4, true}, {2, 2, true}};
  TableCost cost({{0, 0, 0, 0, 0}, {0, 0, 0}});
  EXPECT_FALSE(SolveConvexMinisum(rap, cost, 4).ok());
  EXPECT_FALSE(SolvePaperDp(rap, cost, 4).ok());
  EXPECT_TRUE(SolveMinimax(rap, cost, 5).ok());
}

}  // namespace
}  // namespace mr::flex
