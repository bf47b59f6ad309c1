// The metric-specific orders: their keys, and, on a pool of one slot (a single machine, where
// the classic results hold), Lawler's rule and the Moore-Hodgson procedure reach the optimum
// over every order.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "scheduler/flex/allocator.h"
#include "scheduler/flex/mps.h"
#include "scheduler/flex/orders.h"

namespace mr::flex {
namespace {

FlexJob Job(double work, int max, double deadline, double weight = 1) {
  FlexJob j;
  j.work = work;
  j.max_slots = max;
  j.terms.deadline = deadline;
  j.terms.weight = weight;
  j.terms.alone = work / max;
  return j;
}

TEST(FlexOrdersTest, StaticKeys) {
  // work, max, deadline, weight
  std::vector<FlexJob> jobs = {Job(40, 4, 9, 1), Job(10, 1, 3, 1), Job(30, 10, 5, 4)};
  using V = std::vector<int>;
  EXPECT_EQ(StaticOrder(OrderKind::kShortestWork, jobs), (V{1, 2, 0}));
  EXPECT_EQ(StaticOrder(OrderKind::kShortestAtMax, jobs), (V{2, 0, 1}));  // 10, 10, 3
  EXPECT_EQ(StaticOrder(OrderKind::kLongestAtMax, jobs), (V{0, 1, 2}));   // ties: lower index
  EXPECT_EQ(StaticOrder(OrderKind::kEarliestDeadline, jobs), (V{1, 2, 0}));
  for (FlexJob& j : jobs) j.metric = Metric::kWeightedResponseTime;
  EXPECT_EQ(StaticOrder(OrderKind::kWeightedShortestWork, jobs), (V{2, 1, 0}));  // 7.5, 10, 40
}

// Moldable completions 4, 2 and 8 against deadlines 5, 1 and 8: jobs 0 (meets 5) and 2 (meets
// 8) first by the deadline they meet, then job 1 (late).
TEST(FlexOrdersTest, MetDeadlineOrder) {
  std::vector<FlexJob> jobs = {Job(1, 1, 5), Job(1, 1, 1), Job(1, 1, 8)};
  EXPECT_EQ(MetDeadlineOrder(jobs, std::vector<double>{4, 2, 8}), (std::vector<int>{0, 2, 1}));
}

double Value(std::span<const FlexJob> jobs, int slots, std::span<const int> order) {
  std::vector<PackJob> pack;
  std::vector<Metric> metrics;
  std::vector<JobTerms> terms;
  for (const FlexJob& j : jobs) {
    pack.push_back({j.work, j.min_slots, j.max_slots});
    metrics.push_back(j.metric);
    terms.push_back(j.terms);
  }
  auto s = PackMalleable(slots, 0, pack, order);
  EXPECT_TRUE(s.ok());
  return CombinedObjective(metrics, terms, s->completion, 0);
}

double BestOverOrders(std::span<const FlexJob> jobs, int slots) {
  std::vector<int> order(jobs.size());
  std::iota(order.begin(), order.end(), 0);
  double best = std::numeric_limits<double>::infinity();
  do {
    best = std::min(best, Value(jobs, slots, order));
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

std::vector<FlexJob> SingleMachineJobs(Metric metric, std::mt19937* rng) {
  std::uniform_real_distribution<double> work(1, 10), d(0, 30), w(0.1, 1);
  std::vector<FlexJob> jobs;
  for (int k = 0; k < 6; ++k) {
    FlexJob j = Job(work(*rng), 1, d(*rng), w(*rng));
    j.metric = metric;
    jobs.push_back(j);
  }
  return jobs;
}

TEST(FlexOrdersTest, LawlerIsOptimalOnOneSlot) {
  std::mt19937 rng(11);
  for (Metric m :
       {Metric::kMaxTardiness, Metric::kMaxLateness, Metric::kMaxStretch, Metric::kMakespan}) {
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<FlexJob> jobs = SingleMachineJobs(m, &rng);
      EXPECT_NEAR(Value(jobs, 1, LawlerOrder(jobs, 1, 0, 0)), BestOverOrders(jobs, 1), 1e-9)
          << MetricName(m) << " trial " << trial;
    }
  }
}

TEST(FlexOrdersTest, MooreHodgsonIsOptimalOnOneSlot) {
  std::mt19937 rng(12);
  for (int trial = 0; trial < 100; ++trial) {
    FlexProblem p;
    p.slots = 1;
    p.jobs = SingleMachineJobs(Metric::kTardyJobs, &rng);
    FlexOptions only;
    only.generic_order = false;  // the specific orders alone: EDF and edf-tardy-last
    auto d = Allocate(p, only);
    ASSERT_TRUE(d.ok());
    EXPECT_DOUBLE_EQ(d->predicted, BestOverOrders(p.jobs, 1)) << "trial " << trial;
  }
}

}  // namespace
}  // namespace mr::flex
