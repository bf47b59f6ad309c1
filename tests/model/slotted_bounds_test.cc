// The SRPT lower bound and DSRPT of the slotted model: hand-worked schedules, and the bound
// below every live policy on random instances.
#include <gtest/gtest.h>

#include "common/rng.h"
#include "model/slotted/slotted_bounds.h"
#include "tests/model/slotted_test_util.h"

namespace mr::model {
namespace {

// As in slotted_sim_test.cc: N = 2; job 1 (slot 1) 2 maps + a 2-unit reduce; job 2 (slot 1)
// 1 map + a 1-unit reduce; job 3 (slot 2) 1 map + two 1-unit reduces.
std::vector<SlottedJob> ThreeJobs() { return {{1, 2, {2}}, {1, 1, {1}}, {2, 1, {1, 1}}}; }

// SRPT on total remaining work (maps first within a job), no dependency:
//  slot 1: job 2 (2 left) before job 1 (4): its map and its reduce. Job 2 done: flow 1.
//  slot 2: job 3 (3 left) before job 1 (4): map + one reduce unit.
//  slot 3: job 3 (1 left): its last unit; job 1: a map. Job 3 done: flow 2.
//  slot 4: job 1: map + reduce unit. slot 5: its last unit. Job 1 done: flow 5.
TEST(SlottedBoundsTest, SrptHandWorked) {
  auto r = SrptLowerBound(ThreeJobs(), 2, true);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->slots, (std::vector<std::string>{"1: 2m1r1", "2: 3m1r1", "3: 1m1 3r1", "4: 1m1r1", "5: 1r1"}));
  EXPECT_EQ(r->flow_time, (std::vector<int64_t>{5, 1, 2}));
  EXPECT_EQ(r->total_flow_time, 8);
}

// DSRPT: SRPT's maps in the same slots; SRPT's reduce units of slot t queue (FIFO) at t + 1
// and take the machines SRPT's maps leave.
//  slot 1: job 2's map (one machine idle: the queue is empty). Queue <- job 2 r1.
//  slot 2: job 3's map; job 2's unit. Job 2 done: flow 2. Queue <- job 3 r1.
//  slot 3: job 1's map; job 3's unit. Queue <- job 3 r1.
//  slot 4: job 1's map; job 3's unit: done, flow 3. Queue <- job 1 r1.
//  slot 5: job 1's unit. Queue <- job 1 r1.   slot 6: job 1's unit: done, flow 6.
TEST(SlottedBoundsTest, DsrptHandWorked) {
  auto r = DelayedSrpt(ThreeJobs(), 2, true);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->slots,
            (std::vector<std::string>{"1: 2m1", "2: 2r1 3m1", "3: 1m1 3r1", "4: 1m1 3r1", "5: 1r1", "6: 1r1"}));
  EXPECT_EQ(r->flow_time, (std::vector<int64_t>{6, 2, 3}));
  EXPECT_EQ(r->total_flow_time, 11);
}

TEST(SlottedBoundsTest, BadInputIsAnError) {
  EXPECT_EQ(SrptLowerBound(ThreeJobs(), 0).status().code(), StatusCode::kInvalidArgument);
  std::vector<SlottedJob> unordered = {{2, 1, {1}}, {1, 1, {1}}};
  EXPECT_EQ(DelayedSrpt(unordered, 2).status().code(), StatusCode::kInvalidArgument);
}

// DSRPT is a feasible preemptive schedule, so it too lies above the bound; and every job's
// work is all done (a flow time of at least its own ceil(work / N)).
TEST(SlottedBoundsTest, DsrptIsAboveTheBoundOnRandomInstances) {
  Rng rng(42);
  for (int i = 0; i < 200; ++i) {
    int n = 0;
    auto jobs = testing::RandomSlottedInstance(rng, &n);
    auto bound = SrptLowerBound(jobs, n);
    auto dsrpt = DelayedSrpt(jobs, n);
    ASSERT_TRUE(bound.ok() && dsrpt.ok());
    EXPECT_LE(bound->total_flow_time, dsrpt->total_flow_time) << "instance " << i;
    for (size_t k = 0; k < jobs.size(); ++k) {
      const int64_t work = jobs[k].maps + jobs[k].reduce_units();
      EXPECT_GE(bound->flow_time[k], (work + n - 1) / n) << "instance " << i << " job " << k;
      EXPECT_GE(dsrpt->flow_time[k], jobs[k].reduces.empty() ? 1 : 2) << "instance " << i;
    }
  }
}

}  // namespace
}  // namespace mr::model
