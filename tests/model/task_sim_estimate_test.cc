// The task-level simulator fills the reduce-work estimate as the master does
// (sched::EstimateSize; docs/policies.md, "Size estimates"): the job's reduce hint until
// a reduce is done, then the mean done reduce time x reducers, less the running reduces'
// elapsed time. Times worked out by hand in the test's comment.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "model/tasksim/task_sim.h"
#include "tests/model/task_sim_test_util.h"

namespace mr::model {
namespace {

using sched::EstimateSource;
using sched::Snapshot;
using testing::ClusterOf;
using testing::LivePolicy;
using testing::MustRun;
using testing::ScriptedScheduler;
using testing::Worker;

// One worker, one map and one reduce slot. The job: one map of 1 s, two reduces of 3 s,
// no shuffle bytes, reduce hint 10 s. t = 0: the hint, nothing done (10 left). t = 1:
// the map ends, r0 starts (1..4). t = 4: r0 done, online: mean 3 x 2 = 6, 3 left; r1
// starts (4..7) and the job ends at 7.
TEST(TaskSimEstimateTest, ReduceHintThenOnlineFromTheDoneReduces) {
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0)});
  TaskJob job;
  job.maps = 1;
  job.map_seconds = 1;
  job.params.hint_map_seconds = 1;
  job.reducers = 2;
  job.reduce_seconds = 3;
  job.params.hint_reduce_seconds = 10;
  std::vector<TaskJob> jobs = {job};
  auto fifo = LivePolicy("fifo");
  std::map<double, sched::SizeEstimate> seen;  // the first snapshot at each time
  ScriptedScheduler spy([&](const Snapshot& snap) {
    if (!snap.jobs.empty()) seen.try_emplace(snap.now, snap.jobs[0].estimate);
    return fifo->Schedule(snap);
  });
  TaskSimResult r = MustRun(jobs, c, spy);
  ASSERT_EQ(r.completion.size(), 1u);
  EXPECT_DOUBLE_EQ(r.completion[0], 7.0);

  ASSERT_TRUE(seen.count(0.0));
  EXPECT_EQ(seen[0.0].reduce_source, EstimateSource::kHint);
  EXPECT_DOUBLE_EQ(seen[0.0].reduce_seconds_total, 10);
  EXPECT_DOUBLE_EQ(seen[0.0].reduce_seconds_remaining, 10);
  ASSERT_TRUE(seen.count(4.0));
  EXPECT_EQ(seen[4.0].reduce_source, EstimateSource::kOnline);
  EXPECT_DOUBLE_EQ(seen[4.0].reduce_seconds_total, 6);
  EXPECT_DOUBLE_EQ(seen[4.0].reduce_seconds_remaining, 3);
}

// Without a hint the policy sees no reduce estimate until a reduce is done.
TEST(TaskSimEstimateTest, NoReduceEstimateWithoutAHint) {
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0)});
  TaskJob job;
  job.maps = 1;
  job.map_seconds = 1;
  job.reducers = 1;
  job.reduce_seconds = 2;
  std::vector<TaskJob> jobs = {job};
  auto fifo = LivePolicy("fifo");
  int rounds = 0;
  ScriptedScheduler spy([&](const Snapshot& snap) {
    for (const auto& j : snap.jobs) {
      EXPECT_EQ(j.estimate.reduce_source, EstimateSource::kNone) << "t = " << snap.now;
      ++rounds;
    }
    return fifo->Schedule(snap);
  });
  MustRun(jobs, c, spy);
  EXPECT_GT(rounds, 0);
}

// A replay's slot overhead (TaskJob::map_overheads: the delivery and report the master saw
// around a task) holds the slot but is not work: the estimates see only the durations, as
// the master's see the worker-measured ones. One map slot; maps of 1 s held 1.5 s each:
// m0 0..1.5, m1 1.5..3, then the 1-s reduce 3..4. At 3 both maps are done: online, mean
// 1 s x 2 maps = 2 slot-seconds (3 if the overhead counted).
TEST(TaskSimEstimateTest, SlotOverheadHoldsTheSlotButIsNotWork) {
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0)});
  TaskJob job;
  job.maps = 2;
  job.map_durations = {1, 1};
  job.map_overheads = {0.5, 0.5};
  job.reducers = 1;
  job.reduce_durations = {1};
  std::vector<TaskJob> jobs = {job};
  auto fifo = LivePolicy("fifo");
  std::map<double, sched::SizeEstimate> seen;
  ScriptedScheduler spy([&](const Snapshot& snap) {
    if (!snap.jobs.empty()) seen.try_emplace(snap.now, snap.jobs[0].estimate);
    return fifo->Schedule(snap);
  });
  TaskSimResult r = MustRun(jobs, c, spy);
  EXPECT_DOUBLE_EQ(r.completion.at(0), 4.0);
  ASSERT_TRUE(seen.count(3.0));
  EXPECT_EQ(seen[3.0].source, EstimateSource::kOnline);
  EXPECT_DOUBLE_EQ(seen[3.0].map_seconds_total, 2.0);
  ASSERT_EQ(r.worker_maps.size(), 1u);
  EXPECT_DOUBLE_EQ(r.worker_maps[0].busy_seconds, 2.0);
}

// Overheads are one finite number >= 0 per task, like durations.
TEST(TaskSimEstimateTest, SlotOverheadsAreChecked) {
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0)});
  TaskJob job;
  job.maps = 2;
  job.map_seconds = 1;
  job.map_overheads = {0.5};
  std::vector<TaskJob> jobs = {job};
  auto fifo = LivePolicy("fifo");
  EXPECT_FALSE(SimulateTasks(jobs, c, *fifo).ok());
  jobs[0].map_overheads = {0.5, -1};
  EXPECT_FALSE(SimulateTasks(jobs, c, *fifo).ok());
}

}  // namespace
}  // namespace mr::model
