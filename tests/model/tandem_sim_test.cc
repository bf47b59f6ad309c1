// The simulator against hand-computed sample paths (paper Figure 2 and small
// cases worked out by hand).
#include <gtest/gtest.h>

#include "model/fluid/tandem_policy.h"
#include "model/fluid/tandem_sim.h"
#include "model/fluid/workload.h"

namespace mr::model {
namespace {

SimResult Simulate(const std::vector<TandemJob>& jobs, std::string_view policy, int k = 100) {
  auto p = MakeTandemPolicy(policy, k);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  auto r = SimulateTandem(jobs, **p);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return *r;
}

// Paper Figure 2: J1=(1,2), J2=(3,1), J3=(2,2) at t=0, FIFO at both stations.
TEST(TandemSimTest, Figure2FifoResponseTimes) {
  std::vector<TandemJob> jobs = {{0, 1, 2}, {0, 3, 1}, {0, 2, 2}};
  SimResult r = Simulate(jobs, "fifo");
  ASSERT_EQ(r.response.size(), 3u);
  EXPECT_NEAR(r.response[0], 2.0, 1e-9);
  EXPECT_NEAR(r.response[1], 4.0, 1e-9);
  EXPECT_NEAR(r.response[2], 6.0, 1e-9);
  EXPECT_NEAR(r.makespan, 6.0, 1e-9);
}

// J2's shuffle drains its backlog until 2.5, then is held to its feed rate 1/3:
// it ends with its map at 4. Ignoring the overlap rule would end it at 2.5;
// a classic tandem queue (shuffle after map) at 5.
TEST(TandemSimTest, ShuffleIsHeldToFeedRateAfterBacklogDrains) {
  SimResult r = Simulate({{0, 1, 2}, {0, 3, 1}}, "fifo");
  EXPECT_NEAR(r.completion[0], 2.0, 1e-9);
  EXPECT_NEAR(r.completion[1], 4.0, 1e-9);
}

TEST(TandemSimTest, SingleJobTakesMaxOfItsSizes) {
  for (const std::string& p : TandemPolicyNames()) {
    EXPECT_NEAR(Simulate({{1.5, 2, 5}}, p).response[0], 5.0, 1e-9) << p;
    EXPECT_NEAR(Simulate({{0, 7, 3}}, p).response[0], 7.0, 1e-9) << p;
  }
}

TEST(TandemSimTest, PsSharesMapStationEqually) {
  // Two map-heavy jobs (2, 0.1) and (4, 0.1) at t=0 under PS: the first maps at
  // rate 1/2 until t=4, the second then alone: maps end at 4 and 6.
  SimResult r = Simulate({{0, 2, 0.1}, {0, 4, 0.1}}, "ps");
  EXPECT_NEAR(r.completion[0], 4.0, 1e-9);
  EXPECT_NEAR(r.completion[1], 6.0, 1e-9);
}

TEST(TandemSimTest, KLpsAdmitsOnlyFirstKJobsToMap) {
  // k=1: the second job's map waits for the first job to depart.
  SimResult r = Simulate({{0, 2, 0.5}, {0, 2, 0.5}}, "klps", 1);
  EXPECT_NEAR(r.completion[0], 2.0, 1e-9);
  EXPECT_NEAR(r.completion[1], 4.0, 1e-9);
}

TEST(TandemSimTest, EveryJobFinishesNoFasterThanAlone) {
  std::vector<TandemJob> jobs = GeneratePoisson(300, 0.9, 1.0, 1.0, 7);
  for (const std::string& p : TandemPolicyNames()) {
    SimResult r = Simulate(jobs, p, 3);
    for (size_t i = 0; i < jobs.size(); ++i) {
      ASSERT_GE(r.response[i], std::max(jobs[i].x, jobs[i].y) * (1 - 1e-9)) << p << " job " << i;
    }
  }
}

TEST(TandemSimTest, RejectsBadJobs) {
  auto p = MakeTandemPolicy("fifo");
  ASSERT_TRUE(p.ok());
  std::vector<TandemJob> bad = {{0, 1, 1}, {1, 0, 1}};
  auto r = SimulateTandem(bad, **p);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("job 1"), std::string::npos);
}

TEST(TandemSimTest, EmptyInstance) {
  auto p = MakeTandemPolicy("ps");
  ASSERT_TRUE(p.ok());
  auto r = SimulateTandem({}, **p);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->makespan, 0.0);
}

}  // namespace
}  // namespace mr::model
