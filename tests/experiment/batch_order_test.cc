// Batch orders in experiment files (experiment/batch_order.h): `johnson` and
// `reverse-johnson` are fifo runs whose jobs arrive in the makespan planner's order;
// `balancedpools` a capacity run of BalancedPools' pools as queues.
#include <gtest/gtest.h>

#include "experiment/batch_order.h"
#include "experiment/experiment_file.h"

namespace mr::experiment {
namespace {

model::TaskJob Job(int maps, double map_seconds, int reducers, double reduce_seconds) {
  model::TaskJob j;
  j.maps = maps;
  j.map_seconds = map_seconds;
  j.reducers = reducers;
  j.reduce_seconds = reduce_seconds;
  return j;
}

ClusterShape OneSlotEach() {
  ClusterShape c;
  c.groups.push_back({1, 1, 1, 1.0, 0, 0});
  return c;
}

TEST(BatchOrderTest, JohnsonsFiveJobExample) {
  // The paper's J1..J5 as one map and one reduce on one slot of each: (m, r) exactly.
  const JobList jobs = {Job(1, 4, 1, 5), Job(1, 1, 1, 4), Job(1, 30, 1, 4), Job(1, 6, 1, 30), Job(1, 2, 1, 3)};
  auto order = BatchOrder(jobs, OneSlotEach(), "johnson");
  ASSERT_TRUE(order.ok()) << order.status().ToString();
  EXPECT_EQ(*order, (std::vector<int>{1, 4, 0, 3, 2}));  // J2, J5, J1, J4, J3
  auto reverse = BatchOrder(jobs, OneSlotEach(), "reverse-johnson");
  ASSERT_TRUE(reverse.ok());
  EXPECT_EQ(*reverse, (std::vector<int>{2, 3, 0, 4, 1}));
  auto ordered = OrderedBatch(jobs, OneSlotEach(), "johnson");
  ASSERT_TRUE(ordered.ok());
  EXPECT_DOUBLE_EQ((*ordered)[1].arrival, 0);                       // J2 first
  EXPECT_DOUBLE_EQ((*ordered)[2].arrival, 4 * kBatchOrderStagger);  // J3 last
  EXPECT_EQ((*ordered)[3].maps, jobs[3].maps);                      // the same jobs, same indices
  auto unchanged = OrderedBatch(jobs, OneSlotEach(), "");
  ASSERT_TRUE(unchanged.ok());
  EXPECT_DOUBLE_EQ((*unchanged)[2].arrival, 0);
}

TEST(BatchOrderTest, RefusesANonBatchAndUnknownOrders) {
  JobList jobs = {Job(1, 1, 1, 1), Job(1, 1, 1, 1)};
  jobs[1].arrival = 3;
  EXPECT_EQ(BatchOrder(jobs, OneSlotEach(), "johnson").status().code(), StatusCode::kInvalidArgument);
  jobs[1].arrival = 0;
  EXPECT_EQ(BatchOrder(jobs, OneSlotEach(), "shortest").status().code(), StatusCode::kInvalidArgument);
}

TEST(BatchOrderTest, ExperimentFilesNameThemAsPolicies) {
  const char* text = R"(name: b
cluster:
  workers: [{count: 2, map_slots: 1, reduce_slots: 1}]
workload:
  generator: makespan
  params: {jobs: 4}
policies: [johnson, reverse-johnson, fifo, {policy: johnson, label: j2}]
)";
  auto e = ParseExperiment(text, "b.yaml");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  ASSERT_EQ(e->policies.size(), 4u);
  EXPECT_EQ(e->policies[0].policy, "fifo");
  EXPECT_EQ(e->policies[0].batch_order, "johnson");
  EXPECT_EQ(e->policies[0].label, "johnson");
  EXPECT_EQ(e->policies[1].batch_order, "reverse-johnson");
  EXPECT_EQ(e->policies[2].batch_order, "");
  EXPECT_EQ(e->policies[3].label, "j2");
  // balancedpools: the capacity policy, its queues from the plan (so no options of its own).
  std::string bp = text;
  bp.replace(bp.find("fifo,"), 5, "balancedpools,");
  auto pools = ParseExperiment(bp, "b.yaml");
  ASSERT_TRUE(pools.ok()) << pools.status().ToString();
  EXPECT_EQ(pools->policies[2].policy, "capacity");
  EXPECT_EQ(pools->policies[2].batch_order, "balancedpools");
  EXPECT_EQ(pools->policies[2].label, "balancedpools");
  std::string with_options = text;
  with_options.replace(with_options.find("fifo,"), 5, "{policy: balancedpools, options: {queues: q}},");
  auto refused = ParseExperiment(with_options, "b.yaml");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("takes no options"), std::string::npos) << refused.status().message();
}

// The paper's Scenario 2 on 30 workers of one map and one reduce slot: J1, J2, J5 of 30
// maps and 30 reduces, J3, J4 of 20; each job's (m, r) on a full wave is Figure 6's.
JobList ScenarioTwo() {
  return {Job(30, 4, 30, 5), Job(30, 1, 30, 4), Job(20, 30, 20, 4), Job(20, 6, 20, 30), Job(30, 2, 30, 3)};
}

ClusterShape ThirtyNodes() {
  ClusterShape c;
  c.groups.push_back({30, 1, 1, 1.0, 0, 0});
  return c;
}

TEST(BatchOrderTest, BalancedPoolsPlanGivesQueuesArrivalsAndThePrediction) {
  auto plan = PlanBatch(ScenarioTwo(), ThirtyNodes(), "balancedpools");
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  // BalancedPools' pools (J4, J3 on 20 + 20 slots; J2, J5, J1 on 10 + 10): 40 against
  // Johnson's 47 (docs/makespan.md, "BalancedPools").
  EXPECT_DOUBLE_EQ(plan->planner_makespan, 40);
  EXPECT_DOUBLE_EQ(plan->johnson_makespan, 47);
  EXPECT_EQ(plan->queues, "queue small map_slots=20 reduce_slots=20\nqueue large map_slots=10 reduce_slots=10\n");
  EXPECT_EQ(plan->pools, "small 20+20 slots: 3,2; large 10+10 slots: 1,4,0");
  // The pools' orders interleaved: J4, J2, J3, J5, J1; each job in its pool's queue.
  const std::vector<int> arrival_order = {3, 1, 2, 4, 0};
  for (size_t p = 0; p < arrival_order.size(); ++p) {
    EXPECT_DOUBLE_EQ(plan->jobs[arrival_order[p]].arrival, static_cast<double>(p) * kBatchOrderStagger) << p;
  }
  EXPECT_EQ(plan->jobs[3].params.queue, "small");
  EXPECT_EQ(plan->jobs[2].params.queue, "small");
  EXPECT_EQ(plan->jobs[0].params.queue, "large");
  EXPECT_EQ(plan->jobs[0].maps, 30);  // the same jobs, same indices
  // Round trip of the prediction file.
  auto back = ParsePlannedBatchText(PlannedBatchText(*plan));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_DOUBLE_EQ(back->planner_makespan, 40);
  EXPECT_DOUBLE_EQ(back->johnson_makespan, 47);
  EXPECT_EQ(back->pools, plan->pools);
  EXPECT_FALSE(ParsePlannedBatchText("planner_makespan=x\n").ok());
}

TEST(BatchOrderTest, OrdersCarryThePlannersPrediction) {
  // Johnson's order on the whole cluster is the abstraction's 47 here too; reverse: no queue.
  auto johnson = PlanBatch(ScenarioTwo(), ThirtyNodes(), "johnson");
  ASSERT_TRUE(johnson.ok());
  EXPECT_DOUBLE_EQ(johnson->planner_makespan, 47);
  EXPECT_EQ(johnson->queues, "");
  EXPECT_EQ(johnson->pools, "one pool");
  auto reverse = PlanBatch(ScenarioTwo(), ThirtyNodes(), "reverse-johnson");
  ASSERT_TRUE(reverse.ok());
  EXPECT_GT(reverse->planner_makespan, 47);
  EXPECT_DOUBLE_EQ(reverse->johnson_makespan, 47);
  EXPECT_EQ(reverse->jobs[2].params.queue, "");
  EXPECT_EQ(PlanBatch(ScenarioTwo(), ThirtyNodes(), "shortest").status().code(), StatusCode::kInvalidArgument);
}

TEST(BatchOrderTest, AloneIsTheSumOfEachJobAlone) {
  // Each job alone on 30 + 30 slots is one wave of maps, then one of reduces: J1 4 + 5, J2
  // 1 + 4, J3 30 + 4, J4 6 + 30, J5 2 + 3; one after the other, 89.
  auto alone = PlanBatch(ScenarioTwo(), ThirtyNodes(), "alone");
  ASSERT_TRUE(alone.ok()) << alone.status().ToString();
  EXPECT_DOUBLE_EQ(alone->planner_makespan, 9 + 5 + 34 + 36 + 5);
  EXPECT_DOUBLE_EQ(alone->johnson_makespan, 47);
  EXPECT_EQ(alone->queues, "");
  for (size_t i = 0; i < alone->jobs.size(); ++i) {  // the workload's order
    EXPECT_DOUBLE_EQ(alone->jobs[i].arrival, static_cast<double>(i) * kBatchOrderStagger) << i;
  }
  // The runner then places each arrival where the one before is predicted to end.
  const JobList chained = ChainedArrivals(alone->jobs, {9, 5, 34, 36, 5});
  EXPECT_DOUBLE_EQ(chained[0].arrival, 0);
  EXPECT_DOUBLE_EQ(chained[2].arrival, 14);
  EXPECT_DOUBLE_EQ(chained[4].arrival, 84);
  EXPECT_EQ(chained[3].maps, 20);
}

TEST(BatchOrderTest, AloneIsAFifoRunInExperimentFiles) {
  const char* text = R"(name: a
cluster:
  workers: [{count: 2, map_slots: 1, reduce_slots: 1}]
workload:
  generator: makespan
  params: {jobs: 4}
policies: [alone, johnson]
)";
  auto e = ParseExperiment(text, "a.yaml");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->policies[0].policy, "fifo");
  EXPECT_EQ(e->policies[0].batch_order, "alone");
  EXPECT_EQ(e->policies[0].label, "alone");
}

}  // namespace
}  // namespace mr::experiment
