// Live policies in the slotted model on random instances: every decision passes the
// simulator's checks (never more tasks than free machines, never a reduce before its
// job's maps are done, nothing assigned twice) and the SRPT bound lies below every policy.
#include <gtest/gtest.h>

#include "model/rng.h"
#include "model/slotted_bounds.h"

namespace mr::model {

std::vector<SlottedJob> RandomSlottedInstance(Rng& rng, int* machines);  // slotted_bounds_test.cc

namespace {

const char* const kPolicies[] = {"fifo", "fair"};

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
    auto jobs = RandomSlottedInstance(rng, &n);
    auto bound = SrptLowerBound(jobs, n);
    ASSERT_TRUE(bound.ok());
    for (bool preemptive : {false, true}) {
      for (const char* policy : kPolicies) {
        auto r = RunPolicy(policy, jobs, n, preemptive);
        ASSERT_TRUE(r.ok()) << policy << " instance " << i << ": " << r.status().ToString();
        EXPECT_LE(bound->total_flow_time, r->total_flow_time)
            << policy << (preemptive ? " preemptive" : "") << " instance " << i;
      }
    }
  }
}

}  // namespace
}  // namespace mr::model
