// The ASRPT paper's own FIFO and Fair in the slotted model (model/slotted/slotted_baselines.h)
// and the non-preemptive floor: hand-worked schedules from the paper's definitions, the
// water filling by hand, and the paper's FIFO against the live fifo on random instances.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "common/rng.h"
#include "model/slotted/slotted_baselines.h"
#include "model/slotted/slotted_bounds.h"
#include "model/slotted/slotted_sim.h"
#include "tests/model/slotted_test_util.h"

namespace mr::model {
namespace {

using testing::RunSlottedPolicy;
using testing::ThreeJobs;

// Equal machines per job, capped by demand, the rest to the others; ties of the last
// machines to the earliest arrivals.
//  held (0,0,0), demand (5,1,3), 6 machines: level 2 fills 2+1+2 = 5, level 3 would need 7;
//  the 6th machine to job 1 (first at the level, below its demand): (3, 1, 2).
//  held (2,0), demand (2,4), 3 machines: job 1 keeps its 2 held; level 1 fills 2+1 = 3: (2, 1).
//  Everyone fits: each gets its demand. No machine: nothing above what is held.
TEST(SlottedBaselinesTest, PaperFairSharesByHand) {
  EXPECT_EQ(PaperFairShares({0, 0, 0}, {5, 1, 3}, 6), (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(PaperFairShares({2, 0}, {2, 4}, 3), (std::vector<int>{2, 1}));
  EXPECT_EQ(PaperFairShares({0, 1}, {2, 3}, 10), (std::vector<int>{2, 3}));
  EXPECT_EQ(PaperFairShares({1, 0}, {4, 4}, 1), (std::vector<int>{1, 0}));
  EXPECT_TRUE(PaperFairShares({}, {}, 5).empty());
}

// The water filling on random inputs: every share in [held, demand], all machines used
// while any demand is unmet, and two jobs below their demand differ by at most one machine
// unless one is held above the level.
TEST(SlottedBaselinesTest, PaperFairSharesAreEqualCappedAndWorkConserving) {
  Rng rng(31);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng.Uniform() * (hi - lo + 1)); };
  for (int i = 0; i < 500; ++i) {
    const size_t n = static_cast<size_t>(pick(1, 7));
    std::vector<int> held(n), demand(n);
    int held_sum = 0, demand_sum = 0;
    for (size_t k = 0; k < n; ++k) {
      held[k] = pick(0, 2);
      demand[k] = held[k] + pick(0, 6);
      held_sum += held[k];
      demand_sum += demand[k];
    }
    const int machines = held_sum + pick(0, 12);
    const std::vector<int> s = PaperFairShares(held, demand, machines);
    ASSERT_EQ(s.size(), n);
    EXPECT_EQ(std::accumulate(s.begin(), s.end(), 0), std::min(machines, demand_sum)) << "instance " << i;
    for (size_t a = 0; a < n; ++a) {
      EXPECT_GE(s[a], held[a]);
      EXPECT_LE(s[a], demand[a]);
      for (size_t b = 0; b < n; ++b) {
        if (s[a] < demand[a] && s[b] > held[b]) {
          EXPECT_LE(s[b], s[a] + 1) << "instance " << i;
        }
      }
    }
  }
}

// paper-fair, preemptive, N = 2:
//  slot 1: demands job 1: 2 maps, job 2: 1 map; level 1: one map each.
//  slot 2: job 1 (1 map), job 2 (1 reduce unit), job 3 (1 map): level 0 and two machines
//          left over, to the earliest: job 1's map, job 2's unit. Job 2 done: flow 2.
//  slot 3: job 1 (2 reduce units), job 3 (1 map): one each.
//  slot 4: job 1 (1 unit), job 3 (2 units): one each. Job 1 done: flow 4.
//  slot 5: job 3's last unit: flow 5 - 2 + 1 = 4.   Total 10.
TEST(SlottedBaselinesTest, PaperFairPreemptiveHandWorked) {
  SlottedResult r = RunSlottedPolicy("paper-fair", ThreeJobs(), 2, true);
  EXPECT_EQ(r.slots, (std::vector<std::string>{"1: 1m1 2m1", "2: 1m1 2r1", "3: 1r1 3m1", "4: 1r1 3r1", "5: 3r1"}));
  EXPECT_EQ(r.flow_time, (std::vector<int64_t>{4, 2, 4}));
  EXPECT_EQ(r.total_flow_time, 10);
}

// paper-fair, non-preemptive, N = 2: slots 1-3 as above (job 1's reduce is one 2-unit task
// that starts in slot 3 and holds its machine).
//  slot 4: job 1 holds 1 (demand 1), job 3 has two 1-unit tasks (demand 2); 2 machines:
//          level 1 gives job 1 its held one and job 3 one. Job 1 done: flow 4.
//  slot 5: job 3's other task: flow 4.   Total 10.
// The live fair (slotted_sim_test.cc) gives job 3's reduces both machines in slot 3 instead
// (reduces first) and finishes job 1 in slot 6.
TEST(SlottedBaselinesTest, PaperFairNonPreemptiveHandWorked) {
  SlottedResult r = RunSlottedPolicy("paper-fair", ThreeJobs(), 2, false);
  EXPECT_EQ(r.slots, (std::vector<std::string>{"1: 1m1 2m1", "2: 1m1 2r1", "3: 1r1 3m1", "4: 1r1 3r1", "5: 3r1"}));
  EXPECT_EQ(r.flow_time, (std::vector<int64_t>{4, 2, 4}));
  EXPECT_EQ(r.total_flow_time, 10);
}

// paper-fifo, non-preemptive, N = 2: jobs strictly by arrival over both kinds of task.
//  slot 1: job 1's two maps.  slot 2: job 1's reduce starts; job 2's map.
//  slot 3: job 1's reduce runs on; job 2's reduce. Jobs 1 and 2 done: flows 3, 3.
//  slot 4: job 3's map.  slot 5: job 3's two reduces: flow 4.   Total 10 (as the live fifo).
TEST(SlottedBaselinesTest, PaperFifoHandWorked) {
  SlottedResult r = RunSlottedPolicy("paper-fifo", ThreeJobs(), 2, false);
  EXPECT_EQ(r.slots, (std::vector<std::string>{"1: 1m2", "2: 1r1 2m1", "3: 1r1 2r1", "4: 3m1", "5: 3r2"}));
  EXPECT_EQ(r.flow_time, (std::vector<int64_t>{3, 3, 4}));
}

// In the slotted model a later job can have ready reduces while an earlier one still has
// maps only if it got map machines the earlier one could not use, which FIFO hands out in
// the same order; so the live fifo (every ready reduce, by arrival, before any map) makes
// the paper's FIFO's decisions (docs/policies.md, "fifo and fair on unified slots").
TEST(SlottedBaselinesTest, PaperFifoIsTheLiveFifoInTheSlottedModel) {
  Rng rng(3131);
  for (int i = 0; i < 300; ++i) {
    int n = 0;
    auto jobs = testing::RandomSlottedInstance(rng, &n);
    for (bool preemptive : {false, true}) {
      SlottedResult paper = RunSlottedPolicy("paper-fifo", jobs, n, preemptive);
      SlottedResult live = RunSlottedPolicy("fifo", jobs, n, preemptive);
      EXPECT_EQ(paper.flow_time, live.flow_time) << "instance " << i << (preemptive ? " preemptive" : "");
    }
  }
}

TEST(SlottedBaselinesTest, BaselinesStayAboveTheBoundsOnRandomInstances) {
  Rng rng(4242);
  for (int i = 0; i < 200; ++i) {
    int n = 0;
    auto jobs = testing::RandomSlottedInstance(rng, &n);
    auto bound = SrptLowerBound(jobs, n);
    auto floor = NonPreemptiveFloor(jobs, n);
    ASSERT_TRUE(bound.ok() && floor.ok());
    for (const std::string& name : SlottedBaselineNames()) {
      for (bool preemptive : {false, true}) {
        SlottedResult r = RunSlottedPolicy(name, jobs, n, preemptive);
        EXPECT_LE(bound->total_flow_time, r.total_flow_time) << name << " instance " << i;
        if (preemptive) continue;
        for (size_t j = 0; j < jobs.size(); ++j) {
          EXPECT_LE(floor->flow_time[j], r.flow_time[j]) << name << " instance " << i << " job " << j;
        }
      }
    }
  }
}

// ceil(M_i / N) + the longest reduce task, per job; N = 2:
//  job 1: 1 + 2 = 3 (finish 3); job 2: 1 + 1 = 2 (finish 2); job 3: 1 + 1 = 2 (finish 3).
//  With N = 1 job 1's two maps need 2 slots: 2 + 2 = 4. A job without reduces: its maps.
TEST(SlottedBaselinesTest, NonPreemptiveFloorByHand) {
  auto r = NonPreemptiveFloor(ThreeJobs(), 2);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->flow_time, (std::vector<int64_t>{3, 2, 2}));
  EXPECT_EQ(r->finish, (std::vector<int64_t>{3, 2, 3}));
  EXPECT_EQ(r->total_flow_time, 7);
  EXPECT_EQ(r->last_slot, 3);
  auto one = NonPreemptiveFloor(std::vector<SlottedJob>{{1, 2, {2}}, {4, 3, {}}}, 1);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->flow_time, (std::vector<int64_t>{4, 3}));
  EXPECT_FALSE(NonPreemptiveFloor(ThreeJobs(), 0).ok());
  EXPECT_FALSE(MakeSlottedBaseline("fifo").ok());
}

}  // namespace
}  // namespace mr::model
