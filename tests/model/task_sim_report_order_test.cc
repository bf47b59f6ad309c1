// The task-level simulator's rounds after task ends, as the live master runs them: one round
// per reported end, in the order the ends were reported, each seeing only the slots freed by
// ends reported by then, and serving first the worker whose report caused it
// (docs/model.md, "A round per report"). Live, the master's state thread handles one
// heartbeat at a time: the round a report runs (master/job_tracker.cc, HeartbeatRound) sees
// the cluster as that report left it, so a second end reported 0.3 ms later is not yet known
// to it, whatever the reaction (report to assignment) is.
#include <gtest/gtest.h>

#include <vector>

#include "model/tasksim/task_sim.h"
#include "tests/model/task_sim_test_util.h"

namespace mr::model {
namespace {

using testing::ClusterOf;
using testing::MustRun;
using testing::ScriptedScheduler;
using testing::Worker;

// A cluster-scope policy that fills every free map slot it is shown, in the snapshot's
// worker order (worker id order, as the master's rows and as asrpt fills them), with the
// pending maps in index order; and every ready reducer on its worker's free reduce slot.
sched::Decision FillInWorkerOrder(const sched::Snapshot& snap) {
  sched::Decision d;
  for (const sched::JobView& j : snap.jobs) {
    for (const sched::ReadyReduce& r : j.ready_reduces) {
      for (const sched::WorkerView& w : snap.workers) {
        if (w.id == r.worker && w.free_reduce > 0)
          d.assignments.push_back({j.id, sched::TaskKind::kReduce, r.index, w.id, sched::SlotKind::kReduce, false});
      }
    }
  }
  std::vector<int> pending;
  for (const sched::JobView& j : snap.jobs) pending.insert(pending.end(), j.pending_maps.begin(), j.pending_maps.end());
  size_t next = 0;
  for (const sched::WorkerView& w : snap.workers) {
    for (int k = 0; k < w.free_map && next < pending.size(); ++k) {
      d.assignments.push_back({snap.jobs[0].id, sched::TaskKind::kMap, pending[next++], w.id,
                               sched::SlotKind::kMap, false});
    }
  }
  return d;
}

// Two workers of one map slot (and one reduce slot), one job of four maps and a 0-s reducer,
// rounds 0.55 ms after each event (the median reaction of the asrpt-2x1-seed1 run). The
// first round, at 0.00055, puts map 0 on worker 1 and map 1 on worker 2. Map 1 (1 s) ends on
// worker 2 at 1.00055, map 0 (1.0003 s) on worker 1 0.3 ms later, at 1.00085. Live, worker
// 2's report runs a round first, which knows of worker 2's free slot only: map 2 on worker 2
// (at 1.0011); worker 1's report's round then gives it map 3 (at 1.0014). Maps 2 and 3 take
// 5 s and 1 s, so worker 2's maps took 1 + 5 = 6 s and worker 1's 1.0003 + 1. With one round
// for both ends (the simulator before this rule) map 2 went to worker 1, the first free slot
// in id order: worker 1 6.0003 s, worker 2 2 s.
std::vector<TaskJob> TwoEndsApart() {
  TaskJob job;
  job.maps = 4;
  job.map_seconds = 1;
  job.map_durations = {1.0003, 1.0, 5.0, 1.0};
  job.reducers = 1;
  job.reduce_durations = {0};
  job.params.hint_map_seconds = 4;
  return {job};
}

ClusterSpec TwoWorkers() {
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1), Worker(1, 1, 0, 1)});
  c.slow_start = 1;
  c.decision_latency = 0.00055;
  return c;
}

TEST(TaskSimReportOrder, TheFirstReportersWorkerGetsTheNextMapUnderAClusterRound) {
  ScriptedScheduler policy(FillInWorkerOrder, sched::SnapshotScope::kCluster);
  const std::vector<TaskJob> jobs = TwoEndsApart();
  const TaskSimResult r = MustRun(jobs, TwoWorkers(), policy);
  ASSERT_EQ(r.worker_maps.size(), 2u);
  EXPECT_NEAR(r.worker_maps[1].busy_seconds, 6.0, 1e-9) << "worker 2 reported first: map 2 is its";
  EXPECT_NEAR(r.worker_maps[0].busy_seconds, 2.0003, 1e-9);
}

TEST(TaskSimReportOrder, TheFirstReportersWorkerGetsTheNextMapUnderHeartbeatRounds) {
  auto fifo = testing::LivePolicy("fifo");
  const std::vector<TaskJob> jobs = TwoEndsApart();
  const TaskSimResult r = MustRun(jobs, TwoWorkers(), *fifo);
  ASSERT_EQ(r.worker_maps.size(), 2u);
  EXPECT_NEAR(r.worker_maps[1].busy_seconds, 6.0, 1e-9) << "worker 2 reported first: map 2 is its";
  EXPECT_NEAR(r.worker_maps[0].busy_seconds, 2.0003, 1e-9);
}

// Ends at one instant are one round, as before: both slots are shown, filled in id order.
TEST(TaskSimReportOrder, EndsAtOneInstantShareOneRound) {
  ScriptedScheduler policy(FillInWorkerOrder, sched::SnapshotScope::kCluster);
  std::vector<TaskJob> jobs = TwoEndsApart();
  jobs[0].map_durations = {1.0, 1.0, 5.0, 1.0};
  const TaskSimResult r = MustRun(jobs, TwoWorkers(), policy);
  ASSERT_EQ(r.worker_maps.size(), 2u);
  EXPECT_NEAR(r.worker_maps[0].busy_seconds, 6.0, 1e-9) << "map 2 to the first free slot, worker 1";
  EXPECT_NEAR(r.worker_maps[1].busy_seconds, 2.0, 1e-9);
}

}  // namespace
}  // namespace mr::model
