// The batch simulator's and BalancedPools' named variants (docs/makespan.md, "Why
// BalancedPools gains little here"), each on a batch worked by hand: Hadoop's reduce slow
// start, the lower bound every schedule obeys, and BalancedPools ranking jobs by work.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/makespan/balanced_pools.h"
#include "model/makespan/batch_plan.h"
#include "model/makespan/batch_sim.h"

namespace mr::model {
namespace {

BatchJob Job(const char* name, std::vector<double> maps, std::vector<double> reduces) {
  BatchJob j;
  j.name = name;
  j.map_durations = std::move(maps);
  j.reduce_durations = std::move(reduces);
  return j;
}

// A: maps 1 and 10, one reduce of 1; B: one map of 1, one reduce of 1; 2 map slots, 1
// reduce slot, order A, B. Maps: A's at 0-1 and 0-10, B's at 1-2.
std::vector<BatchJob> HoldingBatch() { return {Job("A", {1, 10}, {1}), Job("B", {1}, {1})}; }

TEST(BatchSimVariantsTest, ReducesAfterTheirMapsByDefault) {
  // B's reduce is ready at 2 and runs 2-3; A's at 10, 10-11.
  Result<BatchSimResult> r = SimulateBatch(HoldingBatch(), std::vector<int>{0, 1}, {2, 1});
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r->completion[1], 3);
  EXPECT_DOUBLE_EQ(r->completion[0], 11);
  EXPECT_DOUBLE_EQ(r->makespan, 11);
}

TEST(BatchSimVariantsTest, SlowStartHoldsTheReduceSlotThroughTheMapStage) {
  // Slow start 0.05: A's reduce takes the only reduce slot when A's first map ends (1),
  // holds it until A's maps end (10), reduces 10-11; B's reduce, ready at 2, waits: 11-12.
  Result<BatchSimResult> r = SimulateBatch(HoldingBatch(), std::vector<int>{0, 1}, {2, 1}, {.reduce_slow_start = 0.05});
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r->completion[0], 11);
  EXPECT_DOUBLE_EQ(r->completion[1], 12);
  EXPECT_DOUBLE_EQ(r->makespan, 12);
  // Half the maps (1 of 2) is the same point; all of them is the default.
  EXPECT_DOUBLE_EQ(SimulateBatch(HoldingBatch(), std::vector<int>{0, 1}, {2, 1}, {.reduce_slow_start = 0.5})->makespan, 12);
  EXPECT_DOUBLE_EQ(SimulateBatch(HoldingBatch(), std::vector<int>{0, 1}, {2, 1}, {.reduce_slow_start = 1})->makespan, 11);
  EXPECT_FALSE(SimulateBatch(HoldingBatch(), std::vector<int>{0, 1}, {2, 1}, {.reduce_slow_start = 0}).ok());
  EXPECT_FALSE(SimulateBatch(HoldingBatch(), std::vector<int>{0, 1}, {2, 1}, {.reduce_slow_start = 1.5}).ok());
}

TEST(BatchSimVariantsTest, LowerBound) {
  // Map work 12 / 2 = 6; reduce work 2 / 1 + the shortest map 1 = 3; A's critical path
  // 10 + 1 = 11. The default schedule above reaches it.
  EXPECT_DOUBLE_EQ(BatchLowerBound(HoldingBatch(), {2, 1}), 11);
  // On 1 + 1 slots the map work dominates: 12.
  EXPECT_DOUBLE_EQ(BatchLowerBound(HoldingBatch(), {1, 1}), 12);
  // Reduce work: two reduces of 5 on one slot after a map of 1: 11.
  EXPECT_DOUBLE_EQ(BatchLowerBound(std::vector<BatchJob>{Job("C", {1}, {5, 5})}, {4, 1}), 11);
  // A map-only batch: its map work and longest map only.
  EXPECT_DOUBLE_EQ(BatchLowerBound(std::vector<BatchJob>{Job("D", {3, 1}, {})}, {1, 1}), 4);
}

// X: one map and one reduce of 100 (heavy, few tasks); Y1..Y4: 4 maps and 4 reduces of 1.
std::vector<BatchJob> HeavyAndLight() {
  std::vector<BatchJob> jobs{Job("X", {100}, {100})};
  for (const char* n : {"Y1", "Y2", "Y3", "Y4"}) jobs.push_back(Job(n, {1, 1, 1, 1}, {1, 1, 1, 1}));
  return jobs;
}

TEST(BalancedPoolsVariantsTest, RanksByMapTasksOrByWork) {
  // Johnson's order on 4 + 4 slots runs the Ys first (maps 0-4), X's map 4-104 and reduce
  // 104-204. Alone on a pool of one slot X takes 200, so either ranking splits X from the Ys.
  Result<PoolsResult> maps = BalancedPools(HeavyAndLight(), {4, 4});
  ASSERT_TRUE(maps.ok());
  EXPECT_DOUBLE_EQ(maps->johnson_makespan, 204);
  EXPECT_DOUBLE_EQ(maps->makespan, 200);
  // The paper's key: X has the fewest maps, so it is the small pool (split 1).
  EXPECT_EQ(maps->split, 1);
  EXPECT_EQ(maps->pools[0].order, std::vector<int>{0});
  // By work X is the largest: the small pool is the four Ys (split 4).
  PoolsOptions by_work;
  by_work.key = PoolSplitKey::kWork;
  Result<PoolsResult> work = BalancedPools(HeavyAndLight(), {4, 4}, by_work);
  ASSERT_TRUE(work.ok());
  EXPECT_DOUBLE_EQ(work->makespan, 200);
  EXPECT_EQ(work->split, 4);
  EXPECT_EQ(work->pools[1].order, std::vector<int>{0});
}

// The paper's Scenario 2 (tests/model/makespan_sim_test.cc): J1, J2, J5 of 30 maps and 30
// reduces, J3, J4 of 20, on 30 + 30 slots.
std::vector<BatchJob> ScenarioTwo() {
  auto wave = [](const char* n, int tasks, double m, double r) {
    return Job(n, std::vector<double>(tasks, m), std::vector<double>(tasks, r));
  };
  return {wave("J1", 30, 4, 5), wave("J2", 30, 1, 4), wave("J3", 20, 30, 4), wave("J4", 20, 6, 30),
          wave("J5", 30, 2, 3)};
}

TEST(BalancedPoolsVariantsTest, ThePseudocodesSearchTakenLiterallyMissesScenarioTwosPools) {
  // The loop as written keeps the makespans it simulated last (line 19). On the split J3, J4
  // (small) | J2, J5, J1: at 20 small slots the pools take 40 and 39 — the paper's pools —
  // but the small one is not the faster, so begin = 20; at 21 it is (the large pool on 9 + 9
  // slots takes 46), so end = 21 and the loop stops with 21's 46, against the paper's own 40
  // (Figure 9(b)). The default search (the crossing, then the better side) finds the 40.
  PoolsOptions paper;
  paper.search = PoolSearch::kPaper;
  Result<PoolsResult> r = BalancedPools(ScenarioTwo(), {30, 30}, paper);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_DOUBLE_EQ(r->johnson_makespan, 47);
  EXPECT_DOUBLE_EQ(r->makespan, 46);
  ASSERT_EQ(r->pools.size(), 2u);
  EXPECT_EQ(r->pools[0].slots.map_slots, 21);
  EXPECT_DOUBLE_EQ(r->pools[0].makespan, 40);
  EXPECT_DOUBLE_EQ(r->pools[1].makespan, 46);
  EXPECT_DOUBLE_EQ(BalancedPools(ScenarioTwo(), {30, 30})->makespan, 40);
}

TEST(BalancedPoolsVariantsTest, ThePlannerTakesTheVariantsAndItsPlanFileNamesThem) {
  // `mr batch plan --pool-search paper` on Scenario 2: the literal loop's 46 (above), named in
  // the printed plan and the plan file; the default plan keeps the paper's 40 and names none.
  PoolsOptions paper;
  ASSERT_TRUE(ParsePoolsVariants("maps", "paper", paper).ok());
  Result<BatchPlan> plan = MakeBatchPlan(ScenarioTwo(), {30, 30, 30}, paper);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_DOUBLE_EQ(plan->predicted_makespan, 46);
  EXPECT_EQ(plan->variants, "pool-search paper");
  Result<BatchPlan> back = ParseBatchPlan(BatchPlanToJson(*plan), "plan.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->variants, "pool-search paper");
  Result<BatchPlan> standard = MakeBatchPlan(ScenarioTwo(), {30, 30, 30});
  ASSERT_TRUE(standard.ok());
  EXPECT_DOUBLE_EQ(standard->predicted_makespan, 40);
  EXPECT_EQ(standard->variants, "");
  // By work, on X and the Ys: the small pool is the Ys (split 4), X alone in the large one.
  PoolsOptions by_work;
  ASSERT_TRUE(ParsePoolsVariants("work", "crossing", by_work).ok());
  by_work.sim.reduce_slow_start = 0.05;
  plan = MakeBatchPlan(HeavyAndLight(), {4, 4, 4}, by_work);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->split, 4);
  EXPECT_EQ(plan->variants, "pools-by work, slow-start 0.05");
  // --slow-start changes what the planner simulates, not only its name: the holding batch
  // above, in the order A, B on 2 map and 1 reduce slot, 11 with reduces after their maps and
  // 12 with Hadoop's 0.05 (BatchSimVariantsTest.SlowStartHoldsTheReduceSlotThroughTheMapStage).
  const std::vector<std::string> order{"A", "B"};
  EXPECT_DOUBLE_EQ(PlanGivenOrder(HoldingBatch(), {1, 2, 1}, order)->makespan, 11);
  EXPECT_DOUBLE_EQ(PlanGivenOrder(HoldingBatch(), {1, 2, 1}, order, {.reduce_slow_start = 0.05})->makespan, 12);
  EXPECT_EQ(ParsePoolsVariants("tasks", "crossing", by_work).message(), "--pools-by: 'tasks' is not maps or work");
  EXPECT_EQ(ParsePoolsVariants("maps", "binary", by_work).message(),
            "--pool-search: 'binary' is not crossing or paper");
}

}  // namespace
}  // namespace mr::model
