// Batch orders in experiment files (experiment/batch_order.h): `johnson` and
// `reverse-johnson` are fifo runs whose jobs arrive in the makespan planner's order.
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
  std::string bp = text;
  bp.replace(bp.find("fifo,"), 5, "balancedpools,");
  auto refused = ParseExperiment(bp, "b.yaml");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("mr batch run"), std::string::npos) << refused.status().message();
}

}  // namespace
}  // namespace mr::experiment
