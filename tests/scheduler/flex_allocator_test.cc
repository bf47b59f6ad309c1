// FLEX's decision: never below a minimum or above a maximum, no slot idle while a job could
// take it, a schedule that does each job's work, and the metric deciding who gets the slack.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "scheduler/flex/allocator.h"

namespace mr::flex {
namespace {

FlexJob Job(double work, int min, int max, Metric metric = Metric::kResponseTime) {
  FlexJob j;
  j.work = work;
  j.min_slots = min;
  j.max_slots = max;
  j.metric = metric;
  j.terms.alone = work > 0 ? work / max : 1;
  return j;
}

FlexProblem RandomProblem(std::mt19937* rng, bool one_metric) {
  std::uniform_int_distribution<int> n(1, 30), s(1, 200), lo(0, 10), room(0, 50), pick(0, 11);
  std::uniform_real_distribution<double> u(0, 1);
  FlexProblem p;
  p.slots = s(*rng);
  p.now = 10 * u(*rng);
  const Metric shared = static_cast<Metric>(pick(*rng));
  for (int k = n(*rng); k > 0; --k) {
    int min = lo(*rng);
    double work = u(*rng) < 0.1 ? 0 : 1 + 500 * u(*rng);
    FlexJob j = Job(work, min, std::max(1, min + room(*rng)),
                    one_metric ? shared : static_cast<Metric>(pick(*rng)));
    j.terms.arrival = p.now * u(*rng);
    j.terms.weight = 0.05 + u(*rng);
    j.terms.deadline = p.now + 20 * u(*rng);
    double d = p.now + 5 * u(*rng), pen = u(*rng) + 0.01;
    for (int i = 0; i < 3; ++i, d += 5 * u(*rng) + 0.01, pen += u(*rng) + 0.01) {
      j.terms.sla.push_back({d, pen});
    }
    p.jobs.push_back(j);
  }
  return p;
}

// Checks every promise of FlexDecision against the problem.
void ExpectValidDecision(const FlexProblem& p, const FlexDecision& d) {
  const size_t n = p.jobs.size();
  ASSERT_EQ(d.allocation.size(), n);
  ASSERT_EQ(d.minima.size(), n);
  ASSERT_EQ(d.schedule.completion.size(), n);
  long long minima = std::accumulate(d.minima.begin(), d.minima.end(), 0LL);
  EXPECT_LE(minima, p.slots);
  long long raw = 0, cap = 0;
  for (const FlexJob& j : p.jobs)
    raw += j.work > 0 ? j.min_slots : 0, cap += j.work > 0 ? j.max_slots : 0;
  EXPECT_EQ(d.minima_normalised, raw > p.slots);
  std::vector<double> done(n, 0);
  for (const Interval& in : d.schedule.intervals) {
    ASSERT_GT(in.end, in.start);
    long long sum = 0, open_cap = 0;
    for (size_t j = 0; j < n; ++j) {
      const FlexJob& job = p.jobs[j];
      const bool open = job.work > 0 && d.schedule.completion[j] > in.start;
      if (open) {
        EXPECT_GE(in.slots[j], d.minima[j]) << "job " << j;
        if (raw <= p.slots) {
          EXPECT_GE(in.slots[j], job.min_slots) << "job " << j;
        }
        EXPECT_LE(in.slots[j], job.max_slots) << "job " << j;
        open_cap += job.max_slots;
      } else {
        EXPECT_EQ(in.slots[j], 0) << "job " << j;
      }
      sum += in.slots[j];
      done[j] += in.slots[j] * (in.end - in.start);
    }
    EXPECT_EQ(sum, std::min<long long>(p.slots, open_cap)) << "idle slot while a job could run";
  }
  for (size_t j = 0; j < n; ++j) {
    EXPECT_NEAR(done[j], p.jobs[j].work, 1e-6 * (1 + p.jobs[j].work)) << "job " << j;
    if (p.jobs[j].work == 0) {
      EXPECT_EQ(d.schedule.completion[j], p.now);
    }
  }
  if (!d.schedule.intervals.empty()) {
    EXPECT_EQ(d.allocation, d.schedule.intervals.front().slots);
    EXPECT_EQ(std::accumulate(d.allocation.begin(), d.allocation.end(), 0LL),
              std::min<long long>(p.slots, cap));
  }
  std::vector<int> sorted = d.order;
  std::sort(sorted.begin(), sorted.end());
  for (size_t j = 0; j < n; ++j) ASSERT_EQ(sorted[j], static_cast<int>(j));
  std::vector<Metric> metrics;
  std::vector<JobTerms> terms;
  double origin = std::numeric_limits<double>::infinity();
  for (const FlexJob& j : p.jobs) {
    metrics.push_back(j.metric), terms.push_back(j.terms),
        origin = std::min(origin, j.terms.arrival);
  }
  EXPECT_DOUBLE_EQ(d.predicted, CombinedObjective(metrics, terms, d.schedule.completion, origin));
  ASSERT_FALSE(d.trials.empty());
  for (const OrderTrial& t : d.trials) EXPECT_LE(d.predicted, t.value) << t.name;
}

TEST(FlexAllocatorTest, RandomProblemsKeepEveryPromise) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 400; ++trial) {
    FlexProblem p = RandomProblem(&rng, trial % 2 == 0);
    FlexOptions opt;
    opt.swap_rounds = trial % 3 == 0 ? 1 : 0;
    auto d = Allocate(p, opt);
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    SCOPED_TRACE("trial " + std::to_string(trial));
    ExpectValidDecision(p, *d);
  }
}

TEST(FlexAllocatorTest, PaperDpAndBreakpointsDecideAlike) {
  std::mt19937 rng(8);
  for (int trial = 0; trial < 100; ++trial) {
    FlexProblem p = RandomProblem(&rng, true);
    for (FlexJob& j : p.jobs) j.metric = trial % 2 ? Metric::kWeightedTardyJobs : Metric::kSla;
    FlexOptions dp;
    dp.step_solver = StepSolver::kPaperDp;
    auto a = Allocate(p), b = Allocate(p, dp);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_DOUBLE_EQ(a->trials.front().value, b->trials.front().value) << "trial " << trial;
  }
}

// Two jobs on 10 slots, minima 1: A has work 10 and maximum 10, B work 90 and maximum 9.
// Response time: A first takes 9 slots and is done at a = 10/9, B has done a on its one slot
// and finishes the rest on 9: total a + a + (90 - a)/9, against 10 + 10 with B first.
// Tardy jobs with B due at 10 (only 9 slots from the start make it) and A due at 100 give B
// the slack instead, and nobody is late.
TEST(FlexAllocatorTest, TheMetricDecidesWhoGetsTheSlack) {
  FlexProblem p;
  p.slots = 10;
  p.jobs = {Job(10, 1, 10), Job(90, 1, 9)};
  auto rt = Allocate(p);
  ASSERT_TRUE(rt.ok());
  EXPECT_EQ(rt->allocation, (std::vector<int>{9, 1}));
  const double a = 10.0 / 9;
  EXPECT_NEAR(rt->predicted, a + a + (90 - a) / 9, 1e-9);

  for (FlexJob& j : p.jobs) j.metric = Metric::kTardyJobs;
  p.jobs[0].terms.deadline = 100;
  p.jobs[1].terms.deadline = 10;
  auto tardy = Allocate(p);
  ASSERT_TRUE(tardy.ok());
  EXPECT_EQ(tardy->allocation, (std::vector<int>{1, 9}));
  EXPECT_DOUBLE_EQ(tardy->predicted, 0);
}

TEST(FlexAllocatorTest, EdgeCases) {
  FlexProblem empty;
  empty.slots = 4;
  auto d = Allocate(empty);
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->allocation.empty());

  FlexProblem p;
  p.slots = 6;
  p.now = 5;
  p.jobs = {Job(0, 2, 4), Job(12, 5, 6), Job(12, 5, 6)};
  d = Allocate(p);
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->minima_normalised);  // 5 + 5 > 6; the finished job's 2 released
  EXPECT_EQ(d->minima, (std::vector<int>{0, 3, 3}));
  EXPECT_EQ(d->allocation, (std::vector<int>{0, 3, 3}));
  EXPECT_DOUBLE_EQ(d->schedule.completion[0], 5);

  p.jobs[1].max_slots = 2;  // below its minimum
  EXPECT_FALSE(Allocate(p).ok());
  p.jobs[1].max_slots = 6;
  p.jobs[1].metric = Metric::kMaxTardiness;  // no deadline
  auto bad = Allocate(p);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "job 1: metric max-tardiness needs a deadline");
  FlexOptions none;
  none.generic_order = none.specific_orders = false;
  p.jobs[1].metric = Metric::kResponseTime;
  EXPECT_FALSE(Allocate(p, none).ok());
}

}  // namespace
}  // namespace mr::flex
