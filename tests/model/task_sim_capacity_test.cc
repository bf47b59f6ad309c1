// The task-level simulator drives the capacity policy as the master does (docs/policies.md,
// "capacity"): it refuses a job naming a queue the policy does not know, and a queue that
// lent its idle slots gets them back as the borrowed maps end.
#include <gtest/gtest.h>

#include <vector>

#include "model/tasksim/task_sim.h"
#include "scheduler/policies/capacity_scheduler.h"
#include "tests/model/task_sim_test_util.h"

namespace mr::model {
namespace {

using testing::ClusterOf;
using testing::LivePolicy;
using testing::MapOnlyJob;
using testing::MustRun;
using testing::Worker;

sched::CapacityScheduler TwoHalves() {
  auto q = sched::CapacityQueues::Parse("queue a capacity=50\nqueue b capacity=50\n");
  EXPECT_TRUE(q.ok()) << q.status().ToString();
  return sched::CapacityScheduler("capacity", std::move(q).value());
}

TEST(TaskSimCapacityTest, AJobNamingAnUnknownQueueIsRefused) {
  sched::CapacityScheduler s = TwoHalves();
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 1, 1.0), MapOnlyJob(0, 1, 1.0)};
  jobs[0].params.queue = "a";
  jobs[1].params.queue = "huge";
  auto r = SimulateTasks(jobs, ClusterOf({Worker(2, 1, 0, 1.0)}), s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("unknown queue 'huge' (known: a, b)"), std::string::npos)
      << r.status().message();
}

// Four map slots. a's job (8 maps of 1 s) arrives alone and borrows b's two idle slots; b's
// job (2 maps of 1 s) arrives at 0.5 s and waits (no preemption). At 1 s a's four maps end:
// b, below its guarantee, gets two slots and finishes its maps at 2 s. Under fifo it waits
// for a's second wave and finishes them at 3 s.
TEST(TaskSimCapacityTest, TheLendersGuaranteeComesBackAsBorrowedMapsEnd) {
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 8, 1.0), MapOnlyJob(0.5, 2, 1.0)};
  jobs[0].params.queue = "a";
  jobs[1].params.queue = "b";
  const ClusterSpec c = ClusterOf({Worker(4, 1, 0, 1.0)});
  sched::CapacityScheduler capacity = TwoHalves();
  const TaskSimResult cap = MustRun(jobs, c, capacity);
  auto fifo = LivePolicy("fifo");
  const TaskSimResult first = MustRun(jobs, c, *fifo);
  ASSERT_EQ(cap.sojourn.size(), 2u);
  ASSERT_EQ(first.sojourn.size(), 2u);
  EXPECT_NEAR(cap.sojourn[1], 2.0 - 0.5, 0.05);
  EXPECT_NEAR(first.sojourn[1], 3.0 - 0.5, 0.05);
  // The price: a's last maps end at 3 s instead of 2 s.
  EXPECT_NEAR(cap.sojourn[0], 3.0, 0.05);
  EXPECT_NEAR(first.sojourn[0], 2.0, 0.05);
}

}  // namespace
}  // namespace mr::model
