// The task-level simulator honours the whole scheduler seam: running attempts with
// progress, measured map rates, worker queues, job parameters, backup attempts,
// kills and cluster-scope rounds. Small scripted policies emit exactly the
// decisions under test; each expected time is worked out by hand in the comment.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "model/tasksim/task_sim.h"
#include "tests/model/task_sim_test_util.h"

namespace mr::model {
namespace {

using sched::Decision;
using sched::Snapshot;
using sched::TaskKind;
using testing::AttemptsOf;
using testing::ClusterOf;
using testing::LivePolicy;
using testing::MapOnlyJob;
using testing::MustRun;
using testing::ScriptedScheduler;
using testing::Worker;

// FIFO, plus a backup on the heartbeating worker's free map slot of any map running
// alone elsewhere at progress < 0.5 (a toy speculator).
Decision FifoWithBackups(sched::Scheduler& fifo, const Snapshot& snap) {
  Decision d = fifo.Schedule(snap);
  if (snap.heartbeating == 0 || !d.assignments.empty()) return d;
  const sched::WorkerView& me = snap.workers[snap.heartbeating - 1];
  if (me.free_map < 1) return d;
  for (const sched::JobView& j : snap.jobs) {
    for (const sched::RunningAttempt& a : j.running) {
      if (a.kind == TaskKind::kMap && a.worker != me.id && a.progress < 0.5 &&
          AttemptsOf(j, TaskKind::kMap, a.index).size() == 1) {
        d.assignments.push_back({j.id, TaskKind::kMap, a.index, me.id, sched::SlotKind::kMap, true});
        return d;
      }
    }
  }
  return d;
}

// Worker 1 has speed 1/4, worker 2 speed 1, one map slot each. Job A (t = 0): two maps
// of work 1. t = 0: m0 on worker 1 (4 s), m1 on worker 2 (1 s). t = 1: m1 done; worker
// 2 idles, sees m0 at progress 1/4 and starts a backup of it (1 s). t = 2: the backup
// wins, attempt 0 on worker 1 is killed and its slot frees; A's 0-s reduce runs, A
// completes at 2 (4 without the backup). Job B (t = 3, one map of work 1): worker 1's
// round shows its slot free (it would be busy until 4 had the loser kept it), so B's
// map starts there (4 s); worker 2 backs it up at once and wins at 4.
TEST(TaskSimSeamTest, BackupOnAFastWorkerFinishesTheStragglerAndFreesTheLosersSlot) {
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 0.25), Worker(1, 1, 0, 1.0)});
  c.idle_rounds = true;
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 2, 1.0), MapOnlyJob(3, 1, 1.0)};
  auto fifo = LivePolicy("fifo");
  bool saw_backup_round = false, saw_free_slot_at_3 = false;
  ScriptedScheduler spec([&](const Snapshot& snap) {
    if (snap.now == 1.0 && snap.heartbeating == 2) {
      saw_backup_round = true;
      auto m0 = AttemptsOf(snap.jobs.at(0), TaskKind::kMap, 0);
      EXPECT_EQ(m0.size(), 1u);
      if (!m0.empty()) {
        EXPECT_DOUBLE_EQ(m0[0].progress, 0.25);
        EXPECT_EQ(m0[0].worker, 1u);
        EXPECT_DOUBLE_EQ(m0[0].start_time, 0);
      }
      EXPECT_DOUBLE_EQ(snap.workers[1].map_task_rate, 1.0);  // one map in 1 s
      EXPECT_DOUBLE_EQ(snap.workers[0].map_task_rate, 0.0);  // none finished yet
    }
    if (snap.now == 3.0 && snap.heartbeating == 1) saw_free_slot_at_3 = snap.workers[0].free_map == 1;
    return FifoWithBackups(*fifo, snap);
  });
  TaskSimResult r = MustRun(jobs, c, spec);
  ASSERT_EQ(r.completion.size(), 2u);
  EXPECT_DOUBLE_EQ(r.completion[0], 2.0);
  EXPECT_DOUBLE_EQ(r.completion[1], 4.0);
  EXPECT_EQ(r.backups, 2);
  EXPECT_EQ(r.kills, 2);
  EXPECT_TRUE(saw_backup_round);
  EXPECT_TRUE(saw_free_slot_at_3);

  // Without idle rounds (the master's behaviour today) an idle worker is never offered a
  // round, so no backup starts: A's m0 runs [0, 4] on worker 1 and A completes at 4;
  // B's map goes to the idle worker 2, [3, 4].
  c.idle_rounds = false;
  ScriptedScheduler plain([&](const Snapshot& snap) { return FifoWithBackups(*fifo, snap); });
  TaskSimResult p = MustRun(jobs, c, plain);
  EXPECT_DOUBLE_EQ(p.completion[0], 4.0);
  EXPECT_DOUBLE_EQ(p.completion[1], 4.0);
  EXPECT_EQ(p.backups, 0);
}

// One worker, one map slot. A (t = 0) has one map of 2 s; B (t = 1) and C (t = 2) one
// of 1 s each. At 1 the worker is busy, so the round is a share refresh; the policy
// kills A's attempt 0. Its slot frees, m0 is pending again, and the round that follows
// starts it again (attempt 1; FIFO puts A first): [1, 3]. The round at C's arrival
// sees that attempt. A completes at 3, B's map runs [3, 4], C's [4, 5].
TEST(TaskSimSeamTest, KillReturnsTheTaskToPending) {
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0)});
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 1, 2.0), MapOnlyJob(1, 1, 1.0),
                               MapOnlyJob(2, 1, 1.0)};
  auto fifo = LivePolicy("fifo");
  bool killed = false, saw_pending_again = false;
  std::vector<sched::RunningAttempt> at_2;
  ScriptedScheduler killer([&](const Snapshot& snap) {
    Decision d = fifo->Schedule(snap);
    if (killed && snap.now == 1.0 && snap.heartbeating == 1) {
      const sched::JobView& a = snap.jobs.at(0);
      saw_pending_again = a.pending_maps == std::vector<int>{0} && a.running.empty();
    }
    if (!killed && snap.now >= 1.0) {
      killed = true;
      d.kills.push_back({1, TaskKind::kMap, 0, 0, "test"});
    }
    if (snap.now == 2.0) at_2 = AttemptsOf(snap.jobs.at(0), TaskKind::kMap, 0);
    return d;
  });
  TaskSimResult r = MustRun(jobs, c, killer);
  EXPECT_DOUBLE_EQ(r.completion[0], 3.0);
  EXPECT_DOUBLE_EQ(r.completion[1], 4.0);
  EXPECT_DOUBLE_EQ(r.completion[2], 5.0);
  EXPECT_EQ(r.kills, 1);
  EXPECT_EQ(r.failed_attempts, 0);  // a kill is not a failure
  EXPECT_TRUE(saw_pending_again);
  ASSERT_EQ(at_2.size(), 1u);
  EXPECT_EQ(at_2[0].attempt, 1u);
  EXPECT_DOUBLE_EQ(at_2[0].start_time, 1.0);
  EXPECT_DOUBLE_EQ(at_2[0].progress, 0.5);
}

// Two workers with one map slot each; a job of two 1-s maps. The policy queues every
// pending map at worker 2 and starts a queued map only on its worker. Worker 1 never
// runs one; worker 2 runs m0 [0, 1] then m1 [1, 2]: the job completes at 2 (1 under
// plain FIFO). Its 0-s reduce is placed on worker 1 and FIFO runs it there.
TEST(TaskSimSeamTest, QueuedMapWaitsForItsWorker) {
  ClusterSpec c = ClusterOf({Worker(1, 1, 0, 1.0), Worker(1, 1, 0, 1.0)});
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 2, 1.0)};
  auto fifo = LivePolicy("fifo");
  std::vector<sched::WorkerId> map_workers;
  int max_queue_seen = 0;
  ScriptedScheduler queuer([&](const Snapshot& snap) {
    Decision d = fifo->Schedule(snap);
    std::erase_if(d.assignments, [](const auto& a) { return a.kind == TaskKind::kMap; });
    for (const sched::JobView& j : snap.jobs) {
      for (int m : j.pending_maps) d.queue.push_back({j.id, m, 2});
      int free = snap.heartbeating ? snap.workers[snap.heartbeating - 1].free_map : 0;
      for (const sched::QueuedMap& q : j.queued_maps) {
        if (q.worker == snap.heartbeating && free-- > 0) {
          d.assignments.push_back({j.id, TaskKind::kMap, q.index, q.worker, sched::SlotKind::kMap});
          map_workers.push_back(q.worker);
        }
      }
    }
    max_queue_seen = std::max(max_queue_seen, snap.workers[1].queued_maps);
    return d;
  });
  TaskSimResult r = MustRun(jobs, c, queuer);
  EXPECT_DOUBLE_EQ(r.completion[0], 2.0);
  EXPECT_EQ(map_workers, (std::vector<sched::WorkerId>{2, 2}));
  EXPECT_EQ(max_queue_seen, 2);
}

// A kCluster policy's single round shows every worker's free slots (2 + 1 + 1 map
// slots) and may fill them all: 4 maps of 1 s start at 0 and the job completes at 1.
TEST(TaskSimSeamTest, ClusterScopePolicySeesEveryFreeSlot) {
  ClusterSpec c = ClusterOf({Worker(2, 1, 0, 1.0), Worker(1, 1, 0, 1.0), Worker(1, 1, 0, 1.0)});
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 4, 1.0)};
  std::vector<int> first_free;
  bool all_unowned = true;
  ScriptedScheduler whole(
      [&](const Snapshot& snap) {
        all_unowned = all_unowned && snap.heartbeating == 0;
        if (first_free.empty()) {
          for (const auto& w : snap.workers) first_free.push_back(w.free_map);
        }
        Decision d;
        for (const sched::JobView& j : snap.jobs) {
          size_t next = 0;
          for (const auto& w : snap.workers) {
            for (int s = 0; s < w.free_map && next < j.pending_maps.size(); ++s) {
              d.assignments.push_back(
                  {j.id, TaskKind::kMap, j.pending_maps[next++], w.id, sched::SlotKind::kMap});
            }
          }
          for (const sched::ReadyReduce& rr : j.ready_reduces) {
            if (snap.workers[rr.worker - 1].free_reduce > 0)
              d.assignments.push_back(
                  {j.id, TaskKind::kReduce, rr.index, rr.worker, sched::SlotKind::kReduce});
          }
        }
        return d;
      },
      sched::SnapshotScope::kCluster);
  TaskSimResult r = MustRun(jobs, c, whole);
  EXPECT_EQ(first_free, (std::vector<int>{2, 1, 1}));
  EXPECT_TRUE(all_unowned);
  EXPECT_DOUBLE_EQ(r.completion[0], 1.0);
  EXPECT_EQ(r.assignments, 5);  // four maps and the reduce
}

TEST(TaskSimSeamTest, JobParametersReachTheSnapshot) {
  TaskJob j = MapOnlyJob(2, 1, 1.0);
  j.params.pool = "batch";
  j.params.weight = 3;
  std::vector<TaskJob> jobs = {j};
  auto fifo = LivePolicy("fifo");
  bool checked = false;
  ScriptedScheduler look([&](const Snapshot& snap) {
    if (!checked && !snap.jobs.empty()) {
      checked = true;
      const sched::JobView& v = snap.jobs[0];
      EXPECT_EQ(v.params.pool, "batch");
      EXPECT_DOUBLE_EQ(v.params.weight, 3);
    }
    return fifo->Schedule(snap);
  });
  MustRun(jobs, ClusterOf({Worker(1, 1, 0, 1.0)}), look);
  EXPECT_TRUE(checked);
}

// Each way of breaking the new parts of the contract is an Internal error naming the
// policy and the reason.
TEST(TaskSimSeamTest, InvalidSeamDecisionsAreErrors) {
  enum class Fault { kBackupOfPending, kTwoBackups, kKillNotRunning, kQueueNoWorker,
                     kQueuedElsewhere, kUnifiedNotOffered };
  struct Case {
    Fault fault;
    const char* reason;
  };
  const Case cases[] = {
      {Fault::kBackupOfPending, "not running in exactly one attempt"},
      {Fault::kTwoBackups, "not running in exactly one attempt"},
      {Fault::kKillNotRunning, "that attempt is not running"},
      {Fault::kQueueNoWorker, "no such worker"},
      {Fault::kQueuedElsewhere, "queued at another worker"},
      {Fault::kUnifiedNotOffered, "no free slot of the kind given"},
  };
  // Two workers with two map slots each, a job of 4 maps of 1 s: at 0 worker 1's round
  // comes first (nothing runs yet), then worker 2's (m0 and m1 run on worker 1).
  ClusterSpec c = ClusterOf({Worker(2, 1, 0, 1.0), Worker(2, 1, 0, 1.0)});
  std::vector<TaskJob> jobs = {MapOnlyJob(0, 4, 1.0)};
  for (const Case& k : cases) {
    auto fifo = LivePolicy("fifo");
    ScriptedScheduler broken([&](const Snapshot& snap) {
      Decision d = fifo->Schedule(snap);
      if (snap.jobs.empty() || snap.heartbeating == 0) return d;
      const sched::JobView& j = snap.jobs[0];
      const sched::WorkerId me = snap.heartbeating;
      switch (k.fault) {
        case Fault::kBackupOfPending:
          d.assignments.clear();
          d.assignments.push_back({j.id, TaskKind::kMap, 0, me, sched::SlotKind::kMap, true});
          break;
        case Fault::kTwoBackups:
          if (!j.running.empty()) {
            d.assignments.clear();
            for (int i = 0; i < 2; ++i)
              d.assignments.push_back({j.id, TaskKind::kMap, j.running[0].index, me,
                                       sched::SlotKind::kMap, true});
          }
          break;
        case Fault::kKillNotRunning:
          d.kills.push_back({j.id, TaskKind::kMap, 0, 7, "test"});
          break;
        case Fault::kQueueNoWorker:
          d.queue.push_back({j.id, 0, 99});
          break;
        case Fault::kQueuedElsewhere:
          d.assignments.clear();
          d.queue.push_back({j.id, 0, me == 1 ? 2u : 1u});
          d.assignments.push_back({j.id, TaskKind::kMap, 0, me, sched::SlotKind::kMap});
          break;
        case Fault::kUnifiedNotOffered:
          for (auto& a : d.assignments) a.slot = sched::SlotKind::kUnified;
          break;
      }
      return d;
    });
    auto r = SimulateTasks(jobs, c, broken);
    ASSERT_FALSE(r.ok()) << k.reason;
    EXPECT_EQ(r.status().code(), StatusCode::kInternal) << r.status().ToString();
    EXPECT_NE(r.status().message().find("scripted"), std::string::npos) << r.status().ToString();
    EXPECT_NE(r.status().message().find(k.reason), std::string::npos) << r.status().ToString();
  }
}

// The simulator refuses the backups the master refuses (master/decision_applier.cc), so a
// policy the simulator accepts behaves the same live: a backup on the worker of the attempt
// it backs up (no help against a slow worker), and a reduce's backup (its fetched data is
// on one worker). One worker with 3 map and 2 reduce slots; job A (t = 0): one map of 4 s
// (or of 1 s then a 5-s reduce); job B arrives at t = 2 and its round injects the backup.
TEST(TaskSimSeamTest, BackupsTheMasterRefusesAreErrors) {
  struct Case {
    TaskKind kind;
    const char* reason;
  };
  for (const Case& k : {Case{TaskKind::kMap, "another worker"}, Case{TaskKind::kReduce, "backups are for maps"}}) {
    ClusterSpec c = ClusterOf({Worker(3, 2, 0, 1.0)});
    TaskJob a = MapOnlyJob(0, 1, k.kind == TaskKind::kMap ? 4.0 : 1.0);
    if (k.kind == TaskKind::kReduce) a.reduce_seconds = 5;
    std::vector<TaskJob> jobs = {a, MapOnlyJob(2, 1, 1.0)};
    auto fifo = LivePolicy("fifo");
    bool injected = false;
    ScriptedScheduler broken([&](const Snapshot& snap) {
      Decision d = fifo->Schedule(snap);
      if (snap.now < 2 || snap.jobs.empty()) return d;
      for (const sched::RunningAttempt& r : snap.jobs[0].running) {
        if (r.kind != k.kind) continue;
        const sched::SlotKind slot = k.kind == TaskKind::kMap ? sched::SlotKind::kMap : sched::SlotKind::kReduce;
        d.assignments.push_back({snap.jobs[0].id, k.kind, r.index, r.worker, slot, true});
        injected = true;
        break;
      }
      return d;
    });
    auto r = SimulateTasks(jobs, c, broken);
    ASSERT_TRUE(injected) << k.reason;
    ASSERT_FALSE(r.ok()) << k.reason;
    EXPECT_EQ(r.status().code(), StatusCode::kInternal) << r.status().ToString();
    EXPECT_NE(r.status().message().find(k.reason), std::string::npos) << r.status().ToString();
  }
}

}  // namespace
}  // namespace mr::model

namespace mr::model {
namespace {

// Reducers are placed as the master places them (master/reduce_placement.cc): fewest of the
// job's reducers first, ties to the worker whose map reached slow start, then the lowest id.
// The simulator used to break ties by id alone, so every job's extra reducers landed on
// workers 1 and 2 and a 4-worker unified-slot run was predicted 15-31% slow.
TEST(TaskSimSeamTest, ReducersArePlacedAsTheMasterPlacesThem) {
  ClusterSpec c = ClusterOf({Worker(1, 3, 0, 1.0), Worker(1, 3, 0, 1.0), Worker(1, 3, 0, 1.0),
                             Worker(1, 3, 0, 1.0)});
  TaskJob job = MapOnlyJob(0, 1, 1.0);
  job.reducers = 10;
  std::map<int, sched::WorkerId> placed;  // reduce index -> worker
  ScriptedScheduler on_worker3(
      [&](const Snapshot& snap) {
        Decision d;
        for (const sched::JobView& j : snap.jobs) {
          if (!j.pending_maps.empty() && snap.workers[2].free_map > 0) {
            d.assignments.push_back({j.id, TaskKind::kMap, j.pending_maps[0], 3, sched::SlotKind::kMap});
          }
          std::vector<int> free(snap.workers.size());
          for (size_t w = 0; w < snap.workers.size(); ++w) free[w] = snap.workers[w].free_reduce;
          for (const sched::ReadyReduce& rr : j.ready_reduces) {
            placed.emplace(rr.index, rr.worker);
            if (free[rr.worker - 1]-- > 0)
              d.assignments.push_back({j.id, TaskKind::kReduce, rr.index, rr.worker, sched::SlotKind::kReduce});
          }
        }
        return d;
      },
      sched::SnapshotScope::kCluster);
  std::vector<TaskJob> jobs = {job};
  MustRun(jobs, c, on_worker3);
  ASSERT_EQ(placed.size(), 10u);
  // The master's order: 3, 1, 2, 4, 3, 1, 2, 4, 3, 1.
  std::map<sched::WorkerId, int> per_worker;
  for (const auto& [index, worker] : placed) ++per_worker[worker];
  EXPECT_EQ(per_worker, (std::map<sched::WorkerId, int>{{1, 3}, {2, 2}, {3, 3}, {4, 2}}));
  EXPECT_EQ(placed.at(0), 3u);
}

}  // namespace
}  // namespace mr::model
