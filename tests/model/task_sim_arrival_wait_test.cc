// The task-level simulator's round after an arrival, as the live master runs it: a worker
// with a free slot hears of a new job only at its next periodic heartbeat (20 ms by default;
// only a task's end makes a worker heartbeat at once), so two jobs submitted a few
// milliseconds apart onto idle workers are offered together, and fair splits the idle slots
// between them (docs/model.md, "An arrival waits for a heartbeat"). Read in an
// asrpt-2x1-seed1 run under fair: jobs 5 and 6 arrived 5.2 ms apart on idle workers, the
// first heartbeat came 19.2 ms after job 5's arrival and fair gave one worker to each.
#include <gtest/gtest.h>

#include <vector>

#include "model/tasksim/task_sim.h"
#include "tests/model/task_sim_test_util.h"

namespace mr::model {
namespace {

using testing::ClusterOf;
using testing::MapOnlyJob;
using testing::MustRun;
using testing::Worker;

// Two workers of one unified slot; job A (two 10-s maps) arrives at 0, job B (two 10-s maps)
// 4 ms later. Offered together, fair's max-min share is one slot each: both jobs run one map
// at a time and end at 20 s (+ the wait). Offered at A's arrival alone, A takes both slots
// and ends at 10 s, B runs its two maps from 10 s and ends at 20 s.
std::vector<TaskJob> TwoJobsApart() { return {MapOnlyJob(0, 2, 10), MapOnlyJob(0.004, 2, 10)}; }

ClusterSpec TwoUnifiedWorkers(double arrival_latency) {
  ClusterSpec c = ClusterOf({Worker(0, 0, 1, 1), Worker(0, 0, 1, 1)});
  c.slow_start = 1;
  c.arrival_latency = arrival_latency;
  return c;
}

TEST(TaskSimArrivalWait, JobsArrivingWithinTheHeartbeatShareTheIdleSlots) {
  auto fair = testing::LivePolicy("fair");
  const std::vector<TaskJob> jobs = TwoJobsApart();
  const TaskSimResult r = MustRun(jobs, TwoUnifiedWorkers(0.0123), *fair);
  ASSERT_EQ(r.completion.size(), 2u);
  // The round at 0.0123 sees both jobs: one map each, then each its second map at 10.0123.
  EXPECT_NEAR(r.completion[0], 20.0123, 1e-9) << "A shares the slots with B";
  EXPECT_NEAR(r.completion[1], 20.0123, 1e-9);
}

TEST(TaskSimArrivalWait, WithoutTheWaitTheFirstArrivalTakesEveryIdleSlot) {
  auto fair = testing::LivePolicy("fair");
  const std::vector<TaskJob> jobs = TwoJobsApart();
  const TaskSimResult r = MustRun(jobs, TwoUnifiedWorkers(0), *fair);
  ASSERT_EQ(r.completion.size(), 2u);
  EXPECT_NEAR(r.completion[0], 10.0, 1e-9) << "A alone at its round: both slots";
  EXPECT_NEAR(r.completion[1], 20.0, 1e-9);
}

// A job arriving after the wait of the first is its own round: the wait is per arrival.
TEST(TaskSimArrivalWait, AJobArrivingAfterTheWaitFindsTheSlotsTaken) {
  auto fair = testing::LivePolicy("fair");
  std::vector<TaskJob> jobs = TwoJobsApart();
  jobs[1].arrival = 0.02;
  const TaskSimResult r = MustRun(jobs, TwoUnifiedWorkers(0.0123), *fair);
  ASSERT_EQ(r.completion.size(), 2u);
  EXPECT_NEAR(r.completion[0], 10.0123, 1e-9);
  EXPECT_NEAR(r.completion[1], 20.0123, 1e-9);
}

// With the master's periodic round modelled (every 0.1 s while a job is active), a first job
// that ran alone and ended leaves the grid lapsed: live, the next round still comes with a
// heartbeat after the next arrival, not at it. Job 0 (one 1-s map) runs alone; A and B
// arrive at 5 and 5.004: offered together at 5.0123, one slot each.
TEST(TaskSimArrivalWait, AfterAnIdleSpellThePeriodicRoundWaitsForTheHeartbeatToo) {
  auto fair = testing::LivePolicy("fair");
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 1, 1), MapOnlyJob(5, 2, 10), MapOnlyJob(5.004, 2, 10)};
  ClusterSpec c = TwoUnifiedWorkers(0.0123);
  c.refresh_rounds = 0.1;
  const TaskSimResult r = MustRun(jobs, c, *fair);
  ASSERT_EQ(r.completion.size(), 3u);
  EXPECT_NEAR(r.completion[1], 25.0123, 1e-9) << "A shares the slots with B";
  EXPECT_NEAR(r.completion[2], 25.0123, 1e-9);
}

}  // namespace
}  // namespace mr::model
