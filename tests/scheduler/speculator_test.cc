// The LATE speculator on hand-worked snapshots: which task is backed up, the cap, a slow
// worker refused, the minimum age, pending work first, per-job opt-out, and the percentile.
#include "scheduler/stages/speculator.h"

#include <gtest/gtest.h>

#include <vector>

namespace mr::sched {
namespace {

// Worker `id` with one map and one reduce slot (so 4 workers = 8 slots: cap 1), its map
// slot free when `free`, and a measured map rate (0 = none finished yet).
WorkerView Worker(WorkerId id, bool free, double map_task_rate) {
  WorkerView w;
  w.id = id;
  w.map_slots = 1;
  w.reduce_slots = 1;
  w.free_map = free ? 1 : 0;
  w.map_task_rate = map_task_rate;
  return w;
}

RunningAttempt Map(int index, WorkerId worker, double start, double progress, bool backup = false) {
  RunningAttempt a;
  a.kind = TaskKind::kMap;
  a.index = index;
  a.attempt = 1;
  a.worker = worker;
  a.start_time = start;
  a.progress = progress;
  a.backup = backup;
  return a;
}

// At t = 10 worker 4 asks with a free map slot; workers 1, 2 and 4 finish maps at 2/s,
// worker 3 has finished none. Job 1 runs:
//   m0 on worker 3 since t=6, progress 0.2: rate 0.2/4 = 0.05/s, time left 0.8/0.05 = 16 s;
//   m1 on worker 1 since t=9.5, progress 0.8: rate 1.6/s, time left 0.125 s;
//   m2 on worker 2 since t=9.8: 0.2 s old, under the 0.5-s minimum age: not judged.
// Task rates {0.05, 1.6, 2, 2, 2}: the 25th percentile is rank 0.25 x 4 = 1, i.e. 1.6/s, so
// m0 (0.05 < 1.6) is slow and m1 (1.6, not below) is not. Worker rates {2, 2, 0.05 (m0's,
// worker 3 has no finished map), 2}: 25th percentile 0.05 + 0.75 x 1.95 = 1.5125; worker 4
// (2/s) is not slow.
Snapshot Base() {
  Snapshot s;
  s.now = 10;
  s.heartbeating = 4;
  s.workers = {Worker(1, false, 2), Worker(2, false, 2), Worker(3, false, 0), Worker(4, true, 2)};
  JobView j;
  j.id = 1;
  j.maps_total = 6;
  j.maps_done = 3;
  j.maps_running = 3;
  j.running = {Map(0, 3, 6, 0.2), Map(1, 1, 9.5, 0.8), Map(2, 2, 9.8, 0.1)};
  s.jobs.push_back(j);
  return s;
}

TEST(SpeculatorTest, BacksUpTheSlowTaskOnTheAskingWorker) {
  Speculator spec({});
  Decision d = spec.Speculate(Base());
  ASSERT_EQ(d.assignments.size(), 1u);
  const Assignment& a = d.assignments[0];
  EXPECT_EQ(a.job, 1u);
  EXPECT_EQ(a.kind, TaskKind::kMap);
  EXPECT_EQ(a.index, 0);
  EXPECT_EQ(a.worker, 4u);
  EXPECT_EQ(a.slot, SlotKind::kMap);
  EXPECT_TRUE(a.backup);
  EXPECT_NE(d.note.find("m-00000"), std::string::npos) << d.note;
  EXPECT_NE(d.note.find("time left 16s"), std::string::npos) << d.note;
}

TEST(SpeculatorTest, LongestTimeLeftWinsOverLowestRate) {
  // m3 on worker 2 since t=-20, progress 0.9: rate 0.9/30 = 0.03/s (lower than m0's 0.05) but
  // time left 0.1/0.03 = 3.3 s; m0 has 16 s left, so LATE backs up m0. Task rates
  // {0.03, 0.05, 1.6, 2, 2, 2}: 25th percentile at rank 1.25 = 0.05 + 0.25 x 1.55 = 0.4375.
  Snapshot s = Base();
  s.jobs[0].running.push_back(Map(3, 2, -20, 0.9));
  Decision d = Speculator({}).Speculate(s);
  ASSERT_EQ(d.assignments.size(), 1u);
  EXPECT_EQ(d.assignments[0].index, 0);
}

TEST(SpeculatorTest, NoProgressYetMeansTheLongestTimeLeft) {
  // m4 on worker 2 since t=8 has reported nothing: rate 0, time left unknown (forever),
  // so it goes before m0's 16 s.
  Snapshot s = Base();
  s.jobs[0].running.push_back(Map(4, 2, 8, 0));
  Decision d = Speculator({}).Speculate(s);
  ASSERT_EQ(d.assignments.size(), 1u);
  EXPECT_EQ(d.assignments[0].index, 4);
}

TEST(SpeculatorTest, NoBackupThatWouldNotFinishFirst) {
  // m0 at progress 0.9 after 4 s: rate 0.225/s (below the 1.6/s threshold: task rates
  // {0.225, 1.6, 2, 2, 2}), but time left 0.1 / 0.225 = 0.44 s, under the 1 / 2 = 0.5 s a
  // fresh attempt takes on worker 4: no backup.
  Snapshot s = Base();
  s.jobs[0].running[0].progress = 0.9;
  EXPECT_TRUE(Speculator({}).Speculate(s).assignments.empty());
  // Worker 4 at 4 maps/s takes 0.25 s for one: the backup pays.
  s.workers[3].map_task_rate = 4;
  EXPECT_EQ(Speculator({}).Speculate(s).assignments.size(), 1u);
}

TEST(SpeculatorTest, CapCountsRunningBackups) {
  // 8 slots: cap = max(1, floor(0.8)) = 1, and one backup runs already (of m1).
  Snapshot s = Base();
  s.jobs[0].running.push_back(Map(1, 2, 9.9, 0, /*backup=*/true));
  Speculator spec({});
  EXPECT_EQ(spec.Cap(s), 1);
  EXPECT_TRUE(spec.Speculate(s).assignments.empty());
  // 20 workers of 2 slots: cap floor(0.1 x 40) = 4, so the same running backup leaves room.
  for (WorkerId id = 5; id <= 20; ++id) s.workers.push_back(Worker(id, false, 2));
  EXPECT_EQ(spec.Cap(s), 4);
  Decision d = spec.Speculate(s);
  ASSERT_EQ(d.assignments.size(), 1u);
  EXPECT_EQ(d.assignments[0].index, 0);
}

TEST(SpeculatorTest, TaskWithTwoAttemptsIsNotBackedUpAgain) {
  // m0 has a backup already (on worker 1): nothing else is slow, so no backup. The cap is
  // lifted to show it is the rule, not the cap, that refuses.
  Snapshot s = Base();
  s.jobs[0].running.push_back(Map(0, 1, 9.9, 0, /*backup=*/true));
  SpeculatorOptions o;
  o.cap_fraction = 1;
  EXPECT_TRUE(Speculator(o).Speculate(s).assignments.empty());
}

TEST(SpeculatorTest, SlowWorkerIsRefused) {
  // Worker 3 asks instead, having finished maps at 0.1/s; m0 is moved to worker 2 so that
  // worker 3 could back it up. Worker rates {2, 2, 0.1, 2}: 25th percentile
  // 0.1 + 0.75 x 1.9 = 1.525, and 0.1 is below it: worker 3 is slow, no backup.
  Snapshot s = Base();
  s.heartbeating = 3;
  s.workers[2] = Worker(3, true, 0.1);
  s.workers[3] = Worker(4, false, 2);
  s.jobs[0].running[0].worker = 2;
  EXPECT_TRUE(Speculator({}).Speculate(s).assignments.empty());
  // The same worker at 2/s is not slow: {2, 2, 2, 2}, percentile 2, and 2 is not below it.
  s.workers[2].map_task_rate = 2;
  EXPECT_EQ(Speculator({}).Speculate(s).assignments.size(), 1u);
}

TEST(SpeculatorTest, YoungAttemptsAreNotJudged) {
  // With a minimum age of 5 s, m0 (4 s old) is too young: no backup.
  SpeculatorOptions o;
  o.min_age = 5;
  EXPECT_TRUE(Speculator(o).Speculate(Base()).assignments.empty());
  o.min_age = 3.9;  // 4 s old is old enough
  EXPECT_EQ(Speculator(o).Speculate(Base()).assignments.size(), 1u);
}

TEST(SpeculatorTest, PendingWorkGoesFirst) {
  Snapshot s = Base();
  JobView other;
  other.id = 2;
  other.maps_total = 1;
  other.pending_maps = {0};  // a new map this worker could run
  s.jobs.push_back(other);
  EXPECT_TRUE(Speculator({}).Speculate(s).assignments.empty());
  // A map queued at another worker's queue does not count: worker 4 could not run it.
  s.jobs[1].pending_maps.clear();
  s.jobs[1].queued_maps = {{0, 2}};
  EXPECT_EQ(Speculator({}).Speculate(s).assignments.size(), 1u);
  s.jobs[1].queued_maps = {{0, 4}};  // queued at worker 4 itself: it runs that instead
  EXPECT_TRUE(Speculator({}).Speculate(s).assignments.empty());
}

TEST(SpeculatorTest, JobOptOutAndNoFreeSlot) {
  Snapshot s = Base();
  s.jobs[0].params.speculative = false;
  EXPECT_TRUE(Speculator({}).Speculate(s).assignments.empty());
  s = Base();
  s.workers[3].free_map = 0;
  EXPECT_TRUE(Speculator({}).Speculate(s).assignments.empty());
  s.workers[3].unified_slots = s.workers[3].free_unified = 1;  // a unified slot serves too
  Decision d = Speculator({}).Speculate(s);
  ASSERT_EQ(d.assignments.size(), 1u);
  EXPECT_EQ(d.assignments[0].slot, SlotKind::kUnified);
}

// Reduces: at t = 10 worker 4 asks with a free reduce slot only; workers 1, 2 and 4 have
// finished reduces at 1/s, worker 3 none. Every map is done. Job 1 runs
//   r0 on worker 3 since t=4, progress 0.1: rate 0.1/6 = 0.0167/s, time left 54 s;
//   r1 on worker 1 since t=9, progress 0.5: rate 0.5/s, time left 1 s.
// Reduce task rates {0.0167, 0.5, 1, 1, 1}: 25th percentile 0.5/s, so r0 is slow and r1 is
// not. Worker rates {1, 1, 0.0167, 1}: 25th percentile 0.754; worker 4 (1/s) is not slow. A
// fresh reduce on worker 4 takes 1 s, less than r0's 54 s left.
RunningAttempt Reduce(int index, WorkerId worker, double start, double progress) {
  RunningAttempt a = Map(index, worker, start, progress);
  a.kind = TaskKind::kReduce;
  return a;
}

Snapshot ReduceBase() {
  Snapshot s;
  s.now = 10;
  s.heartbeating = 4;
  s.workers = {Worker(1, false, 2), Worker(2, false, 2), Worker(3, false, 0), Worker(4, false, 2)};
  for (WorkerView& w : s.workers) w.reduce_task_rate = w.id == 3 ? 0 : 1;
  s.workers[3].free_reduce = 1;
  JobView j;
  j.id = 1;
  j.maps_total = j.maps_done = 4;
  j.reduces_total = 3;
  j.reduces_running = 2;
  j.running = {Reduce(0, 3, 4, 0.1), Reduce(1, 1, 9, 0.5)};
  s.jobs.push_back(j);
  return s;
}

TEST(SpeculatorTest, BacksUpASlowReduceOnAFreeReduceSlot) {
  Decision d = Speculator({}).Speculate(ReduceBase());
  ASSERT_EQ(d.assignments.size(), 1u) << d.note;
  const Assignment& a = d.assignments[0];
  EXPECT_EQ(a.kind, TaskKind::kReduce);
  EXPECT_EQ(a.index, 0);
  EXPECT_EQ(a.worker, 4u);
  EXPECT_EQ(a.slot, SlotKind::kReduce);
  EXPECT_TRUE(a.backup);
  EXPECT_NE(d.note.find("LATE backup of r-00000 (attempt 1 on worker 3)"), std::string::npos) << d.note;
}

TEST(SpeculatorTest, AReduceBackupTakesAUnifiedSlotWhenNoReduceSlotIsFree) {
  Snapshot s = ReduceBase();
  s.workers[3].free_reduce = 0;
  s.workers[3].unified_slots = 1;
  s.workers[3].free_unified = 1;
  Decision d = Speculator({}).Speculate(s);
  ASSERT_EQ(d.assignments.size(), 1u) << d.note;
  EXPECT_EQ(d.assignments[0].slot, SlotKind::kUnified);
  s.workers[3].free_unified = 0;
  EXPECT_TRUE(Speculator({}).Speculate(s).assignments.empty()) << "no free slot a reduce can use";
}

TEST(SpeculatorTest, NoReduceBackupWhileAReduceIsReadyOnTheAskingWorker) {
  Snapshot s = ReduceBase();
  s.jobs[0].ready_reduces.push_back({2, 4});
  EXPECT_TRUE(Speculator({}).Speculate(s).assignments.empty()) << "new work first";
  s.jobs[0].ready_reduces[0].worker = 2;  // ready elsewhere: this worker's slot is free to back up
  EXPECT_EQ(Speculator({}).Speculate(s).assignments.size(), 1u);
}

TEST(SpeculatorTest, AReduceWhoseBackupStillFetchesGetsNoOtherAndCountsInTheCap) {
  Snapshot s = ReduceBase();
  s.jobs[0].reduce_backups_fetching = {0};
  SpeculatorOptions o;
  o.cap_fraction = 0.25;  // 8 slots: cap 2, so only "one backup per task" refuses
  EXPECT_TRUE(Speculator(o).Speculate(s).assignments.empty());
  // With the default cap (1), a fetching backup of another reduce fills it.
  s = ReduceBase();
  s.jobs[0].reduce_backups_fetching = {2};
  EXPECT_TRUE(Speculator({}).Speculate(s).assignments.empty());
}

TEST(SpeculatorTest, MapAndReduceBackupsShareTheCap) {
  Snapshot s = Base();  // m0 on worker 3 is a map candidate for worker 4
  Snapshot r = ReduceBase();
  s.workers[3].free_reduce = 1;
  for (WorkerView& w : s.workers) w.reduce_task_rate = r.workers[w.id - 1].reduce_task_rate;
  for (const RunningAttempt& a : r.jobs[0].running) s.jobs[0].running.push_back(a);
  Decision d = Speculator({}).Speculate(s);
  ASSERT_EQ(d.assignments.size(), 1u) << "cap 1: " << d.note;
  EXPECT_EQ(d.assignments[0].kind, TaskKind::kMap) << "maps first";
  SpeculatorOptions o;
  o.cap_fraction = 0.25;
  d = Speculator(o).Speculate(s);
  ASSERT_EQ(d.assignments.size(), 2u) << d.note;
  EXPECT_EQ(d.assignments[1].kind, TaskKind::kReduce);
  EXPECT_EQ(d.assignments[1].slot, SlotKind::kReduce);
}

TEST(SpeculatorTest, NoReduceBackupForADriverWithoutThem) {
  Snapshot s = ReduceBase();
  s.reduce_backups = false;  // the task-level simulator
  EXPECT_TRUE(Speculator({}).Speculate(s).assignments.empty());
}

TEST(SpeculatorTest, PercentileInterpolatesBetweenRanks) {
  const std::vector<double> five = {5, 1, 4, 2, 3};
  EXPECT_DOUBLE_EQ(Percentile(five, 25), 2);
  EXPECT_DOUBLE_EQ(Percentile(five, 0), 1);
  EXPECT_DOUBLE_EQ(Percentile(five, 100), 5);
  const std::vector<double> rates = {2, 0.05, 2, 2};
  EXPECT_DOUBLE_EQ(Percentile(rates, 25), 0.05 + 0.75 * 1.95);
  const std::vector<double> one = {7};
  EXPECT_DOUBLE_EQ(Percentile(one, 25), 7);
}

TEST(SpeculatorTest, OptionsAreChecked) {
  SpeculatorOptions o;
  EXPECT_TRUE(o.Validate().ok());
  o.slow_task_percentile = 101;
  Status s = o.Validate();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--speculative-slow-task"), std::string::npos) << s.message();
  o = {};
  o.cap_fraction = -0.1;
  EXPECT_NE(o.Validate().message().find("--speculative-cap"), std::string::npos);
}

// The master's tuning flags, each shown changing a decision (docs/speculation.md). The
// minimum age (--speculative-min-age) is shown by YoungAttemptsAreNotJudged above.

// --speculative-slow-task: at t = 10 worker 4 asks (no measured rates anywhere, so only the
// running attempts judge and no fresh-attempt check applies). Running, each on its own
// worker: A rate 0.1/s with 1 s left (progress 0.9 after 9 s), B 0.2/s with 4 s left
// (0.2 after 1 s), C 0.3/s with 2.33 s left (0.3 after 1 s). Rates {0.1, 0.2, 0.3}: the
// 25th percentile is 0.15 (only A below: A is backed up), the 75th 0.25 (A and B below: B,
// with more time left, is backed up), the 0th 0.1 (nothing below: no backup).
TEST(SpeculatorTest, SlowTaskPercentileDecidesWhichTasksAreSlow) {
  Snapshot s;
  s.now = 10;
  s.heartbeating = 4;
  s.workers = {Worker(1, false, 0), Worker(2, false, 0), Worker(3, false, 0), Worker(4, true, 0)};
  JobView j;
  j.id = 1;
  j.maps_total = 3;
  j.maps_running = 3;
  j.running = {Map(0, 1, 1, 0.9), Map(1, 2, 9, 0.2), Map(2, 3, 9, 0.3)};
  s.jobs.push_back(j);
  SpeculatorOptions o;
  Decision d = Speculator(o).Speculate(s);
  ASSERT_EQ(d.assignments.size(), 1u) << d.note;
  EXPECT_EQ(d.assignments[0].index, 0) << d.note;
  o.slow_task_percentile = 75;
  d = Speculator(o).Speculate(s);
  ASSERT_EQ(d.assignments.size(), 1u) << d.note;
  EXPECT_EQ(d.assignments[0].index, 1) << d.note;
  o.slow_task_percentile = 0;
  EXPECT_TRUE(Speculator(o).Speculate(s).assignments.empty());
}

// --speculative-slow-node: Base() with the asking worker 4 measured at 1 map/s. Worker
// scores {2, 2, 0.05 (m0's running rate), 1}: the 25th percentile is 0.7625, so worker 4 is
// not slow and backs m0 up; the 50th is 1.5, so it is slow and gets nothing. And the slow
// worker of SlowWorkerIsRefused (0.1/s, refused at the 25th percentile 1.525) is not slow at
// the 0th (0.1, not below itself).
TEST(SpeculatorTest, SlowNodePercentileDecidesWhichWorkersAreSlow) {
  Snapshot s = Base();
  s.workers[3].map_task_rate = 1;
  SpeculatorOptions o;
  ASSERT_EQ(Speculator(o).Speculate(s).assignments.size(), 1u);
  o.slow_node_percentile = 50;
  EXPECT_TRUE(Speculator(o).Speculate(s).assignments.empty());

  Snapshot slow = Base();
  slow.heartbeating = 3;
  slow.workers[2] = Worker(3, true, 0.1);
  slow.workers[3] = Worker(4, false, 2);
  slow.jobs[0].running[0].worker = 2;
  o = {};
  EXPECT_TRUE(Speculator(o).Speculate(slow).assignments.empty());
  o.slow_node_percentile = 0;
  EXPECT_EQ(Speculator(o).Speculate(slow).assignments.size(), 1u);
}

// --speculative-cap: Base() with a backup of m1 already running. 8 slots: the default 0.1
// gives a cap of 1, taken, so m0 waits; 0.25 gives 2, and m0 is backed up.
TEST(SpeculatorTest, CapFractionDecidesHowManyBackupsRun) {
  Snapshot s = Base();
  s.jobs[0].running.push_back(Map(1, 2, 9.9, 0, /*backup=*/true));
  SpeculatorOptions o;
  EXPECT_TRUE(Speculator(o).Speculate(s).assignments.empty());
  o.cap_fraction = 0.25;
  Decision d = Speculator(o).Speculate(s);
  ASSERT_EQ(d.assignments.size(), 1u) << d.note;
  EXPECT_EQ(d.assignments[0].index, 0);
}

}  // namespace
}  // namespace mr::sched
