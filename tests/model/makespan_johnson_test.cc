// Johnson's order and the two-stage abstraction on the examples of "Orchestrating an Ensemble
// of MapReduce Jobs for Minimizing Their Makespan" (section 3), and the same batches at task
// level when every job fills the cluster (Scenario 1), where the two must agree.
#include <gtest/gtest.h>

#include <vector>

#include "model/makespan/batch_sim.h"
#include "model/makespan/johnson.h"

namespace mr::model {
namespace {

// Figure 6: J1..J5 as (m, r).
const std::vector<StagePair> kFiveJobs = {{4, 5}, {1, 4}, {30, 4}, {6, 30}, {2, 3}};

TEST(JohnsonTest, FiveJobExampleOrder) {
  // D_i = (4,m) (1,m) (4,r) (6,m) (2,m); sorted by D_i^1: J2(1) J5(2) J1(4) J3(4) J4(6) (J1
  // before J3: input order). m-jobs to the head in that order, J3 (r) to the tail:
  // J2, J5, J1, J4, J3 (Figure 7 and the text).
  EXPECT_EQ(JohnsonOrder(kFiveJobs), (std::vector<int>{1, 4, 0, 3, 2}));
}

TEST(JohnsonTest, FiveJobExampleMakespans) {
  // Johnson: map ends 1, 3, 7, 13, 43; reduce ends max(0,1)+4=5, max(5,3)+3=8, max(8,7)+5=13,
  // max(13,13)+30=43, max(43,43)+4=47.
  const std::vector<int> johnson = JohnsonOrder(kFiveJobs);
  EXPECT_DOUBLE_EQ(TwoStageMakespan(kFiveJobs, johnson), 47);
  // Reverse (J3, J4, J1, J5, J2): map ends 30, 36, 40, 42, 43; reduce ends 34,
  // max(34,36)+30=66, max(66,40)+5=71, max(71,42)+3=74, max(74,43)+4=78.
  EXPECT_EQ(Reversed(johnson), (std::vector<int>{2, 3, 0, 4, 1}));
  EXPECT_DOUBLE_EQ(TwoStageMakespan(kFiveJobs, Reversed(johnson)), 78);
}

TEST(JohnsonTest, TwoJobExample) {
  // J1 = (20, 2), J2 = (2, 20): J1 first 20 + 2 + 20 = 42; J2 first 2 + 20 + 2 = 24.
  const std::vector<StagePair> jobs = {{20, 2}, {2, 20}};
  EXPECT_DOUBLE_EQ(TwoStageMakespan(jobs, std::vector<int>{0, 1}), 42);
  EXPECT_DOUBLE_EQ(TwoStageMakespan(jobs, std::vector<int>{1, 0}), 24);
  EXPECT_EQ(JohnsonOrder(jobs), (std::vector<int>{1, 0}));
}

TEST(JohnsonTest, EqualStagesGoToTheHeadAndMapOnlyJobsToTheEnd) {
  // (3,3): min is the map (ties count as m): head. (5,0): a map-only job, min is its reduce
  // stage of 0: the tail, last (Johnson's rule with s2 = 0, the paper's footnote 4).
  const std::vector<StagePair> jobs = {{5, 0}, {3, 3}, {1, 2}};
  EXPECT_EQ(JohnsonOrder(jobs), (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(ArrivalOrder(3), (std::vector<int>{0, 1, 2}));
}

// A job of `tasks` maps of m and `tasks` reduces of r on as many slots: one wave each.
BatchJob Wave(const char* name, int tasks, double m, double r) {
  BatchJob j;
  j.name = name;
  j.map_durations.assign(tasks, m);
  j.reduce_durations.assign(tasks, r);
  return j;
}

TEST(JohnsonTest, ScenarioOneAtTaskLevelMatchesTheAbstraction) {
  // Scenario 1: every job has 30 maps and 30 reduces on 30 + 30 slots, so each stage is one
  // full wave and the batch is exactly the two-stage flow shop: 47 and 78 again.
  std::vector<BatchJob> jobs = {Wave("J1", 30, 4, 5), Wave("J2", 30, 1, 4), Wave("J3", 30, 30, 4),
                                Wave("J4", 30, 6, 30), Wave("J5", 30, 2, 3)};
  std::vector<JobProfile> profiles;
  for (const BatchJob& j : jobs) profiles.push_back(ProfileOf(j));
  // The ARIA estimate of 30 equal tasks on 30 slots: low 30·4/30 = 4, up 29·4/30 + 4 = 7.87,
  // so m_i is 5.93 and not 4; the order is the same (J2, J5, J1, J4, J3).
  const std::vector<int> order = JohnsonOrderOn(profiles, ArrivalOrder(5), {30, 30});
  EXPECT_EQ(order, (std::vector<int>{1, 4, 0, 3, 2}));
  Result<BatchSimResult> johnson = SimulateBatch(jobs, order, {30, 30});
  ASSERT_TRUE(johnson.ok()) << johnson.status().ToString();
  EXPECT_DOUBLE_EQ(johnson->makespan, 47);
  Result<BatchSimResult> reverse = SimulateBatch(jobs, Reversed(order), {30, 30});
  ASSERT_TRUE(reverse.ok());
  EXPECT_DOUBLE_EQ(reverse->makespan, 78);
}

TEST(JohnsonTest, TwoEqualJobsUnderFifo) {
  // Two (10, 10) jobs of 30 tasks per stage on 30 x 30 slots under FIFO: J1's maps 0-10, its
  // reduces and J2's maps 10-20, J2's reduces 20-30: 30 (the paper's Figure 5(a)). Fair
  // sharing's 40 is checked on the live fair policy (makespan_tasksim_test.cc).
  std::vector<BatchJob> jobs = {Wave("J1", 30, 10, 10), Wave("J2", 30, 10, 10)};
  Result<BatchSimResult> fifo = SimulateBatch(jobs, ArrivalOrder(2), {30, 30});
  ASSERT_TRUE(fifo.ok());
  EXPECT_DOUBLE_EQ(fifo->makespan, 30);
  EXPECT_DOUBLE_EQ(fifo->completion[0], 20);
}

}  // namespace
}  // namespace mr::model
