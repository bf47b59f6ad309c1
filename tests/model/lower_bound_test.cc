// The SRPT two-queue lower bound: hand-checked values, and never above what any
// policy achieves.
#include <gtest/gtest.h>

#include "model/fluid/lower_bound.h"
#include "common/rng.h"
#include "model/fluid/tandem_policy.h"

namespace mr::model {
namespace {

TEST(LowerBoundTest, SrptPreemptsForShorterArrival) {
  std::vector<double> arrivals = {0, 1}, sizes = {3, 1};
  std::vector<double> r = SrptResponseTimes(arrivals, sizes);
  EXPECT_NEAR(r[0], 4.0, 1e-12);
  EXPECT_NEAR(r[1], 1.0, 1e-12);
}

TEST(LowerBoundTest, IsolatedJobsEachContributeTheirLargerSize) {
  std::vector<TandemJob> jobs = {{0, 1, 2}, {10, 3, 1}, {20, 2, 2}};
  auto lb = TandemLowerBound(jobs);
  ASSERT_TRUE(lb.ok());
  EXPECT_EQ(lb->periods, 3);
  EXPECT_NEAR(lb->total_response, 2 + 3 + 2, 1e-12);
}

// One busy period: A (maps 1,3,2 by SRPT: 1,3,6) totals 10; B (shuffles
// 2,1,2 by SRPT: 1,3,5) totals 9. The bound takes 10; FIFO in the tandem gets 12.
TEST(LowerBoundTest, Figure2InstanceTakesLargerQueueTotal) {
  std::vector<TandemJob> jobs = {{0, 1, 2}, {0, 3, 1}, {0, 2, 2}};
  auto lb = TandemLowerBound(jobs);
  ASSERT_TRUE(lb.ok());
  EXPECT_EQ(lb->periods, 1);
  EXPECT_NEAR(lb->srpt_map_total, 10, 1e-12);
  EXPECT_NEAR(lb->srpt_shuffle_total, 9, 1e-12);
  EXPECT_NEAR(lb->total_response, 10, 1e-12);
}

TEST(LowerBoundTest, NeverAboveAnyPolicyOnRandomInstances) {
  Rng rng(2024);
  std::vector<std::unique_ptr<TandemPolicy>> policies;
  for (const std::string& name : TandemPolicyNames()) policies.push_back(MakeTandemPolicy(name, 2).value());
  for (int trial = 0; trial < 200; ++trial) {
    int n = 1 + static_cast<int>(rng.Uniform() * 12);
    std::vector<TandemJob> jobs;
    double t = 0;
    for (int i = 0; i < n; ++i) {
      t += rng.Exponential(0.8);
      // Mix balanced, map-heavy and shuffle-heavy jobs.
      double x = rng.LogNormal(0, 1), y = x * rng.LogNormal(0, 1.5);
      jobs.push_back({t, x, y});
    }
    auto lb = TandemLowerBound(jobs);
    ASSERT_TRUE(lb.ok());
    for (const auto& p : policies) {
      auto r = SimulateTandem(jobs, *p);
      ASSERT_TRUE(r.ok()) << p->name() << ": " << r.status().ToString();
      EXPECT_LE(lb->total_response, r->total_response * (1 + 1e-9))
          << p->name() << " trial " << trial;
    }
  }
}

}  // namespace
}  // namespace mr::model
