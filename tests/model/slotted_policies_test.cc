// Live policies in the slotted model on random instances: every decision passes the
// simulator's checks (never more tasks than free machines, never a reduce before its
// job's maps are done, nothing assigned twice) and the SRPT bound lies below every policy.
#include <gtest/gtest.h>

#include "common/rng.h"
#include "model/slotted/slotted_bounds.h"
#include "scheduler/scheduler.h"
#include "tests/model/slotted_test_util.h"

namespace mr::model {

namespace {


Result<SlottedResult> RunPolicy(const std::string& policy, std::span<const SlottedJob> jobs, int n,
                          bool preemptive) {
  MR_ASSIGN_OR_RETURN(auto p, MakeSlottedPolicy(policy));
  SlottedOptions o;
  o.machines = n;
  o.preemptive = preemptive;
  return RunSlotted(jobs, *p, o);
}

TEST(SlottedPoliciesTest, SrptBoundIsBelowEveryPolicyOn200RandomInstances) {
  Rng rng(2024);
  for (int i = 0; i < 200; ++i) {
    int n = 0;
    auto jobs = testing::RandomSlottedInstance(rng, &n);
    auto bound = SrptLowerBound(jobs, n);
    ASSERT_TRUE(bound.ok());
    for (bool preemptive : {false, true}) {
      for (const std::string& policy : sched::KnownPolicies()) {
        auto r = RunPolicy(policy, jobs, n, preemptive);
        ASSERT_TRUE(r.ok()) << policy << " instance " << i << ": " << r.status().ToString();
        EXPECT_LE(bound->total_flow_time, r->total_flow_time)
            << policy << (preemptive ? " preemptive" : "") << " instance " << i;
      }
    }
  }
}

// The paper's Corollary 2: in the preemptive model ASRPT finishes every map no later than
// DSRPT and serves reduce work smallest-first, so its total flow time is no larger.
TEST(SlottedPoliciesTest, AsrptIsNoWorseThanDsrptOnRandomPreemptiveInstances) {
  Rng rng(77);
  int worse = 0;
  for (int i = 0; i < 200; ++i) {
    int n = 0;
    auto jobs = testing::RandomSlottedInstance(rng, &n);
    auto dsrpt = DelayedSrpt(jobs, n);
    auto asrpt = RunPolicy("asrpt", jobs, n, /*preemptive=*/true);
    ASSERT_TRUE(dsrpt.ok());
    ASSERT_TRUE(asrpt.ok()) << "instance " << i << ": " << asrpt.status().ToString();
    EXPECT_LE(asrpt->total_flow_time, dsrpt->total_flow_time) << "instance " << i;
    worse += asrpt->total_flow_time > dsrpt->total_flow_time;
  }
  EXPECT_EQ(worse, 0);
}

}  // namespace
}  // namespace mr::model
