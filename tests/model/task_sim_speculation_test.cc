// The LATE speculator (scheduler/speculator.h) driven by the task-level simulator, the same
// object the master drives: a hand-worked run on one slow worker, with and without it.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <vector>

#include "common/file_util.h"
#include "model/model_commands.h"
#include "model/tasksim/task_sim.h"
#include "scheduler/policy_table.h"
#include "scheduler/stages/speculator.h"

namespace mr::model {
namespace {

// 4 workers of one map and one reduce slot (8 slots: cap 1), worker 4 at speed 0.1; one job
// of 12 maps of 0.4 s and no shuffle or reduce work. Under fifo, rounds in worker order:
// t=0 m0..m2 on workers 1-3, m3 on worker 4 (4 s there); t=0.4 m4..m6; t=0.8 m7..m9;
// t=1.2 m10, m11 on workers 1, 2 and worker 3 is idle with no map pending.
//   Without speculation the job ends with m3 at t=4.
//   With it, at t=1.2 worker 3 asks: m3 is 1.2 s old at progress 1.2/4 = 0.3, rate
//   0.25/s, time left 2.8 s; m10, m11 are 0 s old (not judged). Task rates {0.25, 2.5, 2.5,
//   2.5} (workers 1-3 finished maps in 0.4 s): 25th percentile 0.25 + 0.75 x 2.25 = 1.94, so
//   m3 is slow; worker 3 (2.5/s) is not. The backup runs 1.2..1.6, wins, m3's first attempt
//   is killed, and the job ends at t=1.6.
TaskSimResult RunSlowCluster(const sched::Speculator* speculator) {
  ClusterSpec c;
  c.workers = 4;
  c.map_slots = 1;
  c.reduce_slots = 1;
  c.shuffle_bandwidth = 1e9;
  c.speeds = {1, 1, 1, 0.1};
  TaskJob job;
  job.maps = 12;
  job.map_seconds = 0.4;
  job.map_bytes = 0;
  job.reducers = 1;
  std::vector<TaskJob> jobs = {job};
  auto fifo = sched::CreateScheduler("fifo");
  EXPECT_TRUE(fifo.ok());
  auto r = SimulateTasks(jobs, c, **fifo, speculator);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : TaskSimResult{};
}

TEST(TaskSimSpeculationTest, BackupOfTheSlowWorkersMapWins) {
  TaskSimResult without = RunSlowCluster(nullptr);
  EXPECT_NEAR(without.makespan, 4.0, 1e-9);
  EXPECT_EQ(without.backups, 0);
  sched::Speculator late({});
  TaskSimResult with = RunSlowCluster(&late);
  EXPECT_NEAR(with.makespan, 1.6, 1e-9);
  EXPECT_EQ(with.backups, 1);
  EXPECT_EQ(with.kills, 1);  // the slow first attempt, the loser of the race
}

TEST(TaskSimSpeculationTest, NoSlowWorkerNoBackup) {
  // All four at speed 1: 12 maps in three waves of 0.4 s; an idle worker never sees an
  // attempt past the 0.5-s minimum age, so nothing is backed up and the job ends at 1.2.
  ClusterSpec c;
  c.workers = 4;
  c.shuffle_bandwidth = 1e9;
  TaskJob job;
  job.maps = 12;
  job.map_seconds = 0.4;
  std::vector<TaskJob> jobs = {job};
  auto fifo = sched::CreateScheduler("fifo");
  ASSERT_TRUE(fifo.ok());
  sched::Speculator late({});
  auto r = SimulateTasks(jobs, c, **fifo, &late);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_NEAR(r->makespan, 1.2, 1e-9);
  EXPECT_EQ(r->backups, 0);
}

// `mr model tasksim --speculate` reaches the simulator: the same slow cluster from a CSV
// workload, the '#' line counts the backup and its kill only with it, and the job ends
// earlier.
TEST(TaskSimSpeculationTest, TasksimCommandSpeculates) {
  TempDir dir("tasksim-speculate");
  const std::string csv = JoinPath(dir.path(), "w.csv");
  ASSERT_TRUE(WriteFileAtomically(csv, "arrival,x,y\n0,1,0.01\n").ok());
  TaskSimOptions o;
  o.workload = csv;
  o.policy = "fifo";
  o.cluster.workers = 4;
  o.cluster.speeds = {1, 1, 1, 0.1};
  o.cluster.shuffle_bandwidth = 1e9;
  o.shape.maps_per_job = 12;
  std::ostringstream plain, speculating;
  Status st = RunTaskSimCommand(o, plain);
  ASSERT_TRUE(st.ok()) << st.ToString();
  o.speculate = true;
  st = RunTaskSimCommand(o, speculating);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(plain.str().find("backups="), std::string::npos) << plain.str();
  EXPECT_NE(speculating.str().find("backups=1 kills=1"), std::string::npos) << speculating.str();
}

}  // namespace
}  // namespace mr::model
