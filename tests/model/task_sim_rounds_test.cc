// When the task-level simulator offers the policy a round: at events (arrivals, task ends),
// and with ClusterSpec::refresh_rounds also whenever that long passes without one while a
// job is active - the live master's periodic round (master/job_tracker.h,
// kShareRefreshSeconds), which a clock-driven policy (flex's epochs, asrpt's rounds) uses to
// re-plan while every slot is busy. Each expected call time is worked out in the comment.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "model/tasksim/task_sim.h"
#include "tests/model/task_sim_test_util.h"

namespace mr::model {
namespace {

using testing::ClusterOf;
using testing::MapOnlyJob;
using testing::MustRun;
using testing::ScriptedScheduler;
using testing::Worker;

// A cluster-scope FIFO on worker 1 that records the time of every call: pending maps in
// job order, then ready reduces, on its map and reduce slots (its unified slots when it has
// them).
sched::Decision FifoOnWorker1(const sched::Snapshot& snap) {
  sched::Decision d;
  const sched::WorkerView& w = snap.workers[0];
  const bool unified = w.unified_slots > 0;
  int free_map = unified ? w.free_unified : w.free_map;
  int free_reduce = w.free_reduce;
  int& reduce_room = unified ? free_map : free_reduce;
  for (const sched::JobView& j : snap.jobs) {
    for (int m : j.pending_maps) {
      if (free_map == 0) break;
      d.assignments.push_back({j.id, sched::TaskKind::kMap, m, w.id,
                               unified ? sched::SlotKind::kUnified : sched::SlotKind::kMap, false});
      --free_map;
    }
  }
  for (const sched::JobView& j : snap.jobs) {
    for (const sched::ReadyReduce& r : j.ready_reduces) {
      if (reduce_room == 0) break;
      d.assignments.push_back({j.id, sched::TaskKind::kReduce, r.index, r.worker,
                               unified ? sched::SlotKind::kUnified : sched::SlotKind::kReduce, false});
      --reduce_room;
    }
  }
  return d;
}

struct RecordingFifo {
  std::vector<double> calls;
  ScriptedScheduler scheduler{[this](const sched::Snapshot& snap) {
                                calls.push_back(snap.now);
                                return FifoOnWorker1(snap);
                              },
                              sched::SnapshotScope::kCluster};
};

// One worker, one map slot. Job A (t = 0): one map of 1 s and a 0-s reduce, done at 1.
// Job B (t = 3): the same, done at 4.
std::vector<TaskJob> TwoJobs() { return {MapOnlyJob(0, 1, 1.0), MapOnlyJob(3, 1, 1.0)}; }

// Without periodic rounds the policy is called at events only: 0 (A arrives, its map
// starts), 1 (the map ends, the reduce is placed; the reduce's end at 1 is another event
// at the same instant), 3 and 4 likewise for B.
TEST(TaskSimRoundsTest, WithoutRefreshRoundsThePolicyIsCalledAtEventsOnly) {
  RecordingFifo p;
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0)});
  const TaskSimResult r = MustRun(TwoJobs(), c, p.scheduler);
  EXPECT_DOUBLE_EQ(r.completion[0], 1.0);
  EXPECT_DOUBLE_EQ(r.completion[1], 4.0);
  for (double t : p.calls) EXPECT_TRUE(t == 0 || t == 1 || t == 3 || t == 4) << t;
}

// With refresh_rounds = 0.25: while A is active, rounds at 0, 0.25, 0.5, 0.75 and 1 (the
// map's end); none from A's end to B's arrival (no job is active); then 3, 3.25, 3.5, 3.75,
// 4. The outcome is unchanged: FIFO does not read the clock.
TEST(TaskSimRoundsTest, RefreshRoundsRunWhileAJobIsActiveAndOnlyThen) {
  RecordingFifo p;
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0)});
  c.refresh_rounds = 0.25;
  const TaskSimResult r = MustRun(TwoJobs(), c, p.scheduler);
  EXPECT_DOUBLE_EQ(r.completion[0], 1.0);
  EXPECT_DOUBLE_EQ(r.completion[1], 4.0);
  for (double t : {0.25, 0.5, 0.75, 3.25, 3.5, 3.75}) {
    int n = 0;
    for (double call : p.calls) n += std::abs(call - t) < 1e-9;
    EXPECT_EQ(n, 1) << "one round at " << t;
  }
  for (double t : p.calls) EXPECT_FALSE(t > 1 + 1e-9 && t < 3 - 1e-9) << "a round with no active job at " << t;
}

// No round before first_round (the replay's first assignment), periodic ones included: the
// first is at 0.6, then every 0.25 s from there (0.85, 1.1, ...) until A's map, started at
// 0.6, ends at 1.6.
TEST(TaskSimRoundsTest, RefreshRoundsStartAtTheFirstRound) {
  RecordingFifo p;
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0)});
  c.refresh_rounds = 0.25;
  c.first_round = 0.6;
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 1, 1.0)};
  const TaskSimResult r = MustRun(jobs, c, p.scheduler);
  EXPECT_DOUBLE_EQ(r.completion[0], 1.6);
  ASSERT_FALSE(p.calls.empty());
  EXPECT_DOUBLE_EQ(p.calls.front(), 0.6);
  for (double t : {0.85, 1.1, 1.35}) {
    int n = 0;
    for (double call : p.calls) n += std::abs(call - t) < 1e-9;
    EXPECT_EQ(n, 1) << "one round at " << t;
  }
}

// Recorded rounds (a replay's: the live master's re-plans) replace the grid: job A (t = 0,
// one map of 2 s) holds the only slot; with round_times {0.33, 0.9, 1.47, 5} and
// refresh_rounds 0.25 the rounds are 0 (A arrives), 0.33, 0.9, 1.47 and 2 (A's map ends, B's
// starts; B arrived at 0.1 with every slot busy: no round of its own), and none on the 0.25 s
// grid; 5 is after the last job's end (3): no round.
TEST(TaskSimRoundsTest, RecordedRoundTimesReplaceTheGrid) {
  RecordingFifo p;
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0)});
  c.refresh_rounds = 0.25;
  c.round_times = {0.33, 0.9, 1.47, 5};
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 1, 2.0), MapOnlyJob(0.1, 1, 1.0)};
  const TaskSimResult r = MustRun(jobs, c, p.scheduler);
  EXPECT_DOUBLE_EQ(r.completion[0], 2.0);
  EXPECT_DOUBLE_EQ(r.completion[1], 3.0);
  std::vector<double> before_b_ends;
  for (double t : p.calls) {
    if (t < 2 - 1e-9) before_b_ends.push_back(t);
    EXPECT_LE(t, 3 + 1e-9);
  }
  EXPECT_EQ(before_b_ends, (std::vector<double>{0, 0.33, 0.9, 1.47}));
}

TEST(TaskSimRoundsTest, RoundTimesMustBeFiniteAndAscending) {
  RecordingFifo p;
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0)});
  c.round_times = {0.5, 0.4};
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 1, 1.0)};
  EXPECT_EQ(SimulateTasks(jobs, c, p.scheduler).status().code(), StatusCode::kInvalidArgument);
  c.round_times = {std::numeric_limits<double>::infinity()};
  EXPECT_EQ(SimulateTasks(jobs, c, p.scheduler).status().code(), StatusCode::kInvalidArgument);
}

// With the periodic round modelled, an arrival while every slot is busy gets no round of
// its own (the master's heartbeats run one only when a worker could take a task): job A
// (t = 0, one map of 2 s) holds the only slot when B (t = 0.1, one map of 1 s) arrives, so
// the rounds stay on A's grid, 0, 0.25, 0.5, ..., and none runs at 0.1 (a round there would
// have moved the grid to 0.35, 0.6, ..., and with it a clock-driven policy's re-plans).
// A's map ends at 2, where B's starts: B ends at 3.
TEST(TaskSimRoundsTest, AnArrivalWithEverySlotBusyWaitsForThePeriodicRound) {
  RecordingFifo p;
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0)});
  c.refresh_rounds = 0.25;
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 1, 2.0), MapOnlyJob(0.1, 1, 1.0)};
  const TaskSimResult r = MustRun(jobs, c, p.scheduler);
  EXPECT_DOUBLE_EQ(r.completion[0], 2.0);
  EXPECT_DOUBLE_EQ(r.completion[1], 3.0);
  for (double t : p.calls) EXPECT_GT(std::abs(t - 0.1), 1e-9) << "a round at B's arrival";
  for (double t : {0.25, 0.5, 0.75, 1.0, 1.75}) {
    int n = 0;
    for (double call : p.calls) n += std::abs(call - t) < 1e-9;
    EXPECT_EQ(n, 1) << "one round at " << t;
  }
}

// policy_start: live, the master calls the policy from its start, jobs or not, so a policy
// with clocked rounds counts them from there. The first call is at -0.4 with no job (and
// decides nothing), then the rounds run as before from first_round, 0.6; a start after the
// first arrival is refused.
TEST(TaskSimRoundsTest, ThePolicysFirstCallIsAtPolicyStartWithNoJob) {
  std::vector<double> calls;
  std::vector<size_t> jobs_seen;
  ScriptedScheduler s{[&](const sched::Snapshot& snap) {
                        calls.push_back(snap.now);
                        jobs_seen.push_back(snap.jobs.size());
                        return FifoOnWorker1(snap);
                      },
                      sched::SnapshotScope::kCluster};
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0)});
  c.first_round = 0.6;
  c.policy_start = -0.4;
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 1, 1.0)};
  const TaskSimResult r = MustRun(jobs, c, s);
  EXPECT_DOUBLE_EQ(r.completion[0], 1.6);
  ASSERT_GE(calls.size(), 2u);
  EXPECT_DOUBLE_EQ(calls[0], -0.4);
  EXPECT_EQ(jobs_seen[0], 0u);
  EXPECT_DOUBLE_EQ(calls[1], 0.6);
  c.policy_start = 0.1;  // after the arrival at 0
  Result<TaskSimResult> late = SimulateTasks(jobs, c, s);
  ASSERT_FALSE(late.ok());
  EXPECT_NE(late.status().message().find("policy start 0.1 is after the first arrival 0"), std::string::npos)
      << late.status().message();
}

// reduce_ready_delay: one worker with two unified slots; this FIFO places maps before
// reduces. Job A (t = 0): two maps of 1 s (both slots, 0..1) and a 1-s reduce; job B
// (t = 0.5): one map of 1 s and a 0-s reduce. Without the delay, at 1 A's reducer is placed
// and ready at once (no data to move): B's map takes one slot and A's reduce the other; A
// ends at 2, B's map at 2 and its 0-s reduce at once: 2. With a delay of 0.25, A's reducer
// is not ready at 1: B's map takes one slot, the other idles until 1.25, A's reduce runs
// 1.25..2.25; B's reducer, placed at 2, is ready at 2.25: B ends at 2.25.
TEST(TaskSimRoundsTest, AReducerIsNotReadyBeforeTheReadyDelayAfterItsPlacement) {
  RecordingFifo p;
  ClusterSpec c = ClusterOf({Worker(0, 0, 2, 1.0)});  // two unified slots
  c.slow_start = 1;
  TaskJob a = MapOnlyJob(0, 2, 1.0);
  a.reduce_seconds = 1.0;
  std::vector<TaskJob> jobs = {a, MapOnlyJob(0.5, 1, 1.0)};
  const TaskSimResult at_once = MustRun(jobs, c, p.scheduler);
  EXPECT_DOUBLE_EQ(at_once.completion[0], 2.0);
  EXPECT_DOUBLE_EQ(at_once.completion[1], 2.0);
  c.reduce_ready_delay = 0.25;
  RecordingFifo q;
  const TaskSimResult delayed = MustRun(jobs, c, q.scheduler);
  EXPECT_DOUBLE_EQ(delayed.completion[0], 2.25);
  EXPECT_DOUBLE_EQ(delayed.completion[1], 2.25);
}

TEST(TaskSimRoundsTest, ANegativeOrInfiniteRefreshPeriodIsRefused) {
  RecordingFifo p;
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0)});
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 1, 1.0)};
  for (double bad : {-0.1, std::numeric_limits<double>::infinity()}) {
    c.refresh_rounds = bad;
    auto r = SimulateTasks(jobs, c, p.scheduler);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("refresh rounds"), std::string::npos) << r.status().message();
  }
}

// The ready reduces' wait split by where the free slots are (TaskSimResult::reduce_*_wait;
// bench/asrpt/reduce_waits.py reads the same split from a live run). Two workers of one map
// and one reduce slot, fifo, rounds 0.5 s after each event (decision_latency), slow start 1.
// One job at 0: one 1-s map, three reducers of 10, 4 and 10 s, no bytes. The map starts at
// 0.5 on worker 1 and ends at 1.5; its reducers are placed then (fewest of the job's, ties to
// the map's worker 1): r0 on 1, r1 on 2, r2 on 1, all ready at once. Round at 2.0: r0 on
// worker 1, r1 on worker 2. Waits, hand-worked:
//   own_free: r0, r1, r2 each 0.5 s over [1.5, 2.0] (their workers idle), and r2 0.5 s over
//             [12.0, 12.5] (r0 ended, the round is 0.5 s later): 2.0 s;
//   full:     r2 over [2.0, 6.0] (both reduce slots busy): 4.0 s;
//   bound:    r2 over [6.0, 12.0] (worker 2 free since r1 ended, worker 1 busy): 6.0 s.
// r2 runs [12.5, 22.5].
TEST(TaskSimRounds, ReduceWaitsAreSplitByWhereTheFreeSlotsAre) {
  TaskJob job;
  job.maps = 1;
  job.map_seconds = 1;
  job.reducers = 3;
  job.map_durations = {1};
  job.reduce_durations = {10, 4, 10};
  job.params.hint_map_seconds = 1;
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1), Worker(1, 1, 0, 1)});
  c.slow_start = 1;
  c.decision_latency = 0.5;
  auto fifo = testing::LivePolicy("fifo");
  const std::vector<TaskJob> jobs = {job};
  const TaskSimResult r = MustRun(jobs, c, *fifo);
  ASSERT_EQ(r.completion.size(), 1u);
  EXPECT_NEAR(r.completion[0], 22.5, 1e-9);
  EXPECT_NEAR(r.reduce_own_free_wait, 2.0, 1e-9);
  EXPECT_NEAR(r.reduce_full_wait, 4.0, 1e-9);
  EXPECT_NEAR(r.reduce_bound_wait, 6.0, 1e-9);
}

}  // namespace
}  // namespace mr::model
