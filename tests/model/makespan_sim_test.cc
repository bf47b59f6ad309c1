// The batch simulator (batch_sim.h) on small batches worked by hand, and BalancedPools
// (balanced_pools.h) on the paper's Scenario 2.
#include <gtest/gtest.h>

#include <vector>

#include "model/makespan/balanced_pools.h"
#include "model/makespan/batch_sim.h"

namespace mr::model {
namespace {

BatchJob Job(const char* name, std::vector<double> maps, std::vector<double> reduces, double gap = 0) {
  BatchJob j;
  j.name = name;
  j.map_durations = std::move(maps);
  j.reduce_durations = std::move(reduces);
  j.shuffle_gap = gap;
  return j;
}

BatchJob Wave(const char* name, int tasks, double m, double r) {
  return Job(name, std::vector<double>(tasks, m), std::vector<double>(tasks, r));
}

TEST(BatchSimTest, ListSchedulingOfMapsThenReduces) {
  // 2 map slots: maps 3 | 1 then 2 → slot A 0-3, slot B 0-1, 1-3: maps end at 3. One reduce of
  // 2 on 1 reduce slot: 3-5.
  std::vector<BatchJob> jobs = {Job("A", {3, 1, 2}, {2})};
  Result<BatchSimResult> r = SimulateBatch(jobs, std::vector<int>{0}, {2, 1});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_DOUBLE_EQ(r->maps_end[0], 3);
  EXPECT_DOUBLE_EQ(r->makespan, 5);
}

TEST(BatchSimTest, FreedReduceSlotsGoToTheFirstJobInTheOrderWithOneReady) {
  // 1 map slot, 1 reduce slot; order A, B, C. Maps: A 0-5, B 5-6, C 6-7. Reduces: A ready at
  // 5 runs 5-9; B (ready 6) and C (ready 7) both wait; at 9 B goes first (earlier in the
  // order) 9-10, then C 10-11.
  std::vector<BatchJob> jobs = {Job("A", {5}, {4}), Job("B", {1}, {1}), Job("C", {1}, {1})};
  Result<BatchSimResult> r = SimulateBatch(jobs, std::vector<int>{0, 1, 2}, {1, 1});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->completion, (std::vector<double>{9, 10, 11}));
  // Order C, B, A: maps C 0-1, B 1-2, A 2-7. C's reduce 1-2, B's 2-3, A's 7-11. Work
  // conserving: a job later in the order takes a slot no earlier job can use yet.
  r = SimulateBatch(jobs, std::vector<int>{2, 1, 0}, {1, 1});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->completion, (std::vector<double>{11, 3, 2}));
}

TEST(BatchSimTest, ShuffleGapMapOnlyJobsAndSubsets) {
  // A: map 2, reduce 1 ready 0.5 after its maps: 2.5-3.5. B map-only: map 2-3, done at 3.
  std::vector<BatchJob> jobs = {Job("A", {2}, {1}, 0.5), Job("B", {1}, {}), Job("C", {9}, {9})};
  Result<BatchSimResult> r = SimulateBatch(jobs, std::vector<int>{0, 1}, {1, 1});
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r->completion[0], 3.5);
  EXPECT_DOUBLE_EQ(r->completion[1], 3);
  EXPECT_DOUBLE_EQ(r->completion[2], 0);  // not in this pool
  EXPECT_DOUBLE_EQ(r->makespan, 3.5);
}

TEST(BatchSimTest, RefusesBadInput) {
  std::vector<BatchJob> jobs = {Job("A", {1}, {1}), Job("B", {}, {1}), Job("C", {-1}, {})};
  EXPECT_FALSE(SimulateBatch(jobs, std::vector<int>{0}, {0, 1}).ok());
  EXPECT_FALSE(SimulateBatch(jobs, std::vector<int>{0, 0}, {1, 1}).ok());
  EXPECT_FALSE(SimulateBatch(jobs, std::vector<int>{3}, {1, 1}).ok());
  EXPECT_EQ(SimulateBatch(jobs, std::vector<int>{1}, {1, 1}).status().message(), "job 'B': needs at least one map");
  EXPECT_EQ(SimulateBatch(jobs, std::vector<int>{2}, {1, 1}).status().message(),
            "job 'C': map durations must be finite and >= 0");
}

TEST(BatchSimTest, AJobFromAProfileKeepsItsAverageAndMaximum) {
  JobProfile p;
  p.name = "p";
  p.maps = 4;
  p.map = {2, 5};
  p.reduces = 2;
  p.reduce = {3, 4};
  p.typical_shuffle = {1, 1};
  p.first_shuffle = {0.5, 2};
  BatchJob j = BatchJobFromProfile(p);
  // Maps: one of 5, three of (4·2 − 5)/3 = 1. Reduces: one of 4 + 1, one of 2·(3 + 1) − 5 = 3.
  EXPECT_EQ(j.map_durations, (std::vector<double>{5, 1, 1, 1}));
  EXPECT_EQ(j.reduce_durations, (std::vector<double>{5, 3}));
  EXPECT_DOUBLE_EQ(j.shuffle_gap, 0.5);
  EXPECT_DOUBLE_EQ(ProfileOf(j).first_shuffle.max, 2);  // its own profile, not the tasks'
}

// Scenario 2 of the paper (section 3.3): J1, J2, J5 have 30 maps and 30 reduces, J3 and J4
// 20 of each, with the stage durations of Figure 6 on 30 slots (a stage of one wave lasts its
// task's duration).
std::vector<BatchJob> ScenarioTwo() {
  return {Wave("J1", 30, 4, 5), Wave("J2", 30, 1, 4), Wave("J3", 20, 30, 4), Wave("J4", 20, 6, 30),
          Wave("J5", 30, 2, 3)};
}

TEST(BalancedPoolsTest, ScenarioTwoJohnsonTakes47) {
  // Johnson's order J2, J5, J1, J4, J3 on 30 + 30 slots. Maps: J2 0-1, J5 1-3, J1 3-7, J4's 20
  // on 20 slots 7-13 while 10 of J3's start on the other 10 at 7 (7-37), its last 10 at 13
  // (13-43). Reduces: J2 1-5, J5 5-8, J1 8-13, J4 13-43 on 20 slots, J3 ready at 43: 43-47.
  std::vector<BatchJob> jobs = ScenarioTwo();
  Result<BatchSimResult> r = SimulateBatch(jobs, std::vector<int>{1, 4, 0, 3, 2}, {30, 30});
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r->makespan, 47);
  EXPECT_DOUBLE_EQ(r->maps_end[2], 43);
}

TEST(BalancedPoolsTest, ScenarioTwoPoolsTake40) {
  // The paper's pools. Pool 1, 10 + 10 slots, J2, J5, J1 (three waves each: (3,12), (6,9),
  // (12,15)): maps J2 0-3, J5 3-9, J1 9-21; reduces J2 3-15, J5 15-24, J1 24-39: 39.
  // Pool 2, 20 + 20 slots, J4 then J3 (one wave): maps J4 0-6, J3 6-36; reduces J4 6-36,
  // J3 36-40: 40. Overall 40, against Johnson's 47.
  Result<PoolsResult> r = BalancedPools(ScenarioTwo(), {30, 30});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_DOUBLE_EQ(r->johnson_makespan, 47);
  EXPECT_DOUBLE_EQ(r->makespan, 40);
  // Sorted by map tasks: J3, J4 (20), then J1, J2, J5 (30); the best split is after two jobs.
  EXPECT_EQ(r->split, 2);
  ASSERT_EQ(r->pools.size(), 2u);
  EXPECT_EQ(r->pools[0].order, (std::vector<int>{3, 2}));  // J4, J3
  EXPECT_EQ(r->pools[0].slots.map_slots, 20);
  EXPECT_EQ(r->pools[0].slots.reduce_slots, 20);
  EXPECT_DOUBLE_EQ(r->pools[0].makespan, 40);
  EXPECT_EQ(r->pools[1].order, (std::vector<int>{1, 4, 0}));  // J2, J5, J1
  EXPECT_EQ(r->pools[1].slots.map_slots, 10);
  EXPECT_DOUBLE_EQ(r->pools[1].makespan, 39);
}

TEST(BalancedPoolsTest, OnePoolWhenNoSplitHelps) {
  // Scenario 1 (every job fills the cluster): no split beats Johnson's 47 — any pool of
  // fewer than 30 slots runs a 30-task stage in two waves or more.
  std::vector<BatchJob> jobs = ScenarioTwo();
  jobs[2] = Wave("J3", 30, 30, 4);
  jobs[3] = Wave("J4", 30, 6, 30);
  Result<PoolsResult> r = BalancedPools(jobs, {30, 30});
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r->makespan, 47);
  EXPECT_EQ(r->split, 0);
  ASSERT_EQ(r->pools.size(), 1u);
  EXPECT_EQ(r->pools[0].order, (std::vector<int>{1, 4, 0, 3, 2}));
  // A cluster of one slot cannot be split at all.
  r = BalancedPools(jobs, {1, 1});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->simulations, 1);
  EXPECT_FALSE(BalancedPools({}, {30, 30}).ok());
}

TEST(BalancedPoolsTest, ReduceSlotsFollowTheMapShare) {
  EXPECT_EQ(SmallPoolReduceSlots(7, {30, 30}), 7);
  EXPECT_EQ(SmallPoolReduceSlots(10, {40, 20}), 5);   // a quarter of each
  EXPECT_EQ(SmallPoolReduceSlots(1, {40, 20}), 1);    // at least one
  EXPECT_EQ(SmallPoolReduceSlots(39, {40, 20}), 19);  // and one left to the other pool
}

}  // namespace
}  // namespace mr::model
