// The master side of the scheduler seam (scheduler/snapshot.h) on a manual clock: what the
// snapshot shows (job parameters, running attempts with progress, measured map rates,
// queues, every worker's free slots for a kCluster policy) and how the tracker honours a
// Decision's kills, queue entries, backup assignments and other workers' assignments, and
// ignores invalid ones. A scripted fake policy decides; the test plays the workers.
#include <gtest/gtest.h>

#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "tracker_harness.h"

namespace mr::master {
namespace {

using sched::Decision;
using sched::Snapshot;
using testing::TrackerHarness;

// Returns the scripted decisions in turn (then empty ones) and keeps every snapshot.
class FakePolicy final : public sched::Scheduler {
 public:
  using Script = std::function<Decision(const Snapshot&)>;
  explicit FakePolicy(sched::SnapshotScope scope) : scope_(scope) {}
  std::string_view name() const override { return "fake"; }
  sched::SnapshotScope scope() const override { return scope_; }
  Decision Schedule(const Snapshot& snap) override {
    snapshots.push_back(snap);
    if (script.empty()) return {};
    Script next = std::move(script.front());
    script.pop_front();
    return next(snap);
  }
  std::deque<Script> script;
  std::vector<Snapshot> snapshots;

 private:
  sched::SnapshotScope scope_;
};

sched::Assignment Map(const Snapshot& s, int index, sched::WorkerId worker, bool backup = false) {
  sched::Assignment a;
  a.job = s.jobs.at(0).id;
  a.kind = sched::TaskKind::kMap;
  a.index = index;
  a.worker = worker;
  a.slot = sched::SlotKind::kMap;
  a.backup = backup;
  return a;
}

sched::Assignment Reduce(const Snapshot& s, int index, sched::WorkerId worker, bool backup = false) {
  sched::Assignment a = Map(s, index, worker, backup);
  a.kind = sched::TaskKind::kReduce;
  a.slot = sched::SlotKind::kReduce;
  return a;
}

Decision Assign(std::vector<sched::Assignment> a) {
  Decision d;
  d.assignments = std::move(a);
  return d;
}
Decision KillsOf(std::vector<sched::Kill> k) {
  Decision d;
  d.kills = std::move(k);
  return d;
}
Decision QueueOf(std::vector<sched::QueueMap> q) {
  Decision d;
  d.queue = std::move(q);
  return d;
}

const sched::WorkerView& WorkerIn(const Snapshot& s, sched::WorkerId id) {
  for (const auto& w : s.workers) {
    if (w.id == id) return w;
  }
  ADD_FAILURE() << "no worker " << id << " in the snapshot";
  return s.workers.at(0);
}

int64_t Counter(const proto::JobStatus& st, const std::string& name) {
  for (const auto& c : st.counters()) {
    if (c.name() == name) return c.value();
  }
  return 0;
}

class SeamTest : public ::testing::Test {
 protected:
  void Make(sched::SnapshotScope scope = sched::SnapshotScope::kHeartbeat,
            TrackerOptions options = TrackerHarness::DefaultOptions()) {
    auto policy = std::make_unique<FakePolicy>(scope);
    policy_ = policy.get();
    h_ = std::make_unique<TrackerHarness>(dir_.path(), std::move(policy), nullptr, options);
  }
  void TearDown() override {
    if (policy_ != nullptr) {
      EXPECT_TRUE(policy_->script.empty()) << "a scripted round never ran";
    }
  }
  // A heartbeat a little later, so the tracker runs a round even with no free slot.
  proto::HeartbeatReply Beat(uint32_t w, std::vector<proto::TaskReport> reports = {}) {
    h_->clock().Advance(1);
    return h_->Beat(w, std::move(reports));
  }
  void Then(FakePolicy::Script s) { policy_->script.push_back(std::move(s)); }
  const Snapshot& LastSnapshot() const { return policy_->snapshots.back(); }

  TempDir dir_{"mr-seam-test"};
  FakePolicy* policy_ = nullptr;
  std::unique_ptr<TrackerHarness> h_;
};

TEST_F(SeamTest, SnapshotShowsParamsRunningAttemptsProgressAndMeasuredRate) {
  Make();
  uint32_t w = h_->AddWorker(2, 1);
  proto::JobSpec spec = h_->SyntheticSpec(3, 1);
  spec.set_pool("batch");
  spec.set_weight(3);
  h_->Submit(spec);
  Then([](const Snapshot& s) {
    Decision d;
    d.assignments = {Map(s, 0, s.heartbeating), Map(s, 1, s.heartbeating)};
    return d;
  });
  Beat(w);
  const Snapshot& first = LastSnapshot();
  EXPECT_EQ(first.heartbeating, w);
  ASSERT_EQ(first.jobs.size(), 1u);
  EXPECT_EQ(first.jobs[0].params.pool, "batch");
  EXPECT_DOUBLE_EQ(first.jobs[0].params.weight, 3);
  EXPECT_TRUE(first.jobs[0].params.speculative);
  EXPECT_EQ(WorkerIn(first, w).map_task_rate, 0.0) << "no map finished yet";
  ASSERT_EQ(h_->worker(w).maps.size(), 2u);
  const double started = h_->clock().Now();

  // A RUNNING report carries progress; an absent one reads as 0.
  proto::TaskReport running = TrackerHarness::MapReport(h_->worker(w).maps[0], proto::RUNNING);
  running.set_progress(0.25);
  Beat(w, {running});
  const sched::JobView& job = LastSnapshot().jobs.at(0);
  ASSERT_EQ(job.running.size(), 2u);
  EXPECT_EQ(job.running[0].index, 0);
  EXPECT_EQ(job.running[0].worker, w);
  EXPECT_EQ(job.running[0].attempt, h_->worker(w).maps[0].attempt());
  EXPECT_DOUBLE_EQ(job.running[0].start_time, started);
  EXPECT_DOUBLE_EQ(job.running[0].progress, 0.25);
  EXPECT_DOUBLE_EQ(job.running[1].progress, 0.0);
  EXPECT_FALSE(job.running[0].backup);
  EXPECT_EQ(job.pending_maps, (std::vector<int>{2}));

  // Map attempts of 1 s and 3 s (worker clock): 2 maps per 4 slot-seconds.
  std::vector<proto::TaskReport> done;
  for (int i = 0; i < 2; ++i) {
    done.push_back(TrackerHarness::MapReport(h_->worker(w).maps[i], proto::SUCCEEDED));
    done.back().set_start_time(2000);
    done.back().set_end_time(2000 + (i == 0 ? 1 : 3));
  }
  h_->worker(w).maps.clear();
  Beat(w, done);
  EXPECT_DOUBLE_EQ(WorkerIn(LastSnapshot(), w).map_task_rate, 0.5);
  EXPECT_TRUE(LastSnapshot().jobs.at(0).running.empty());
}

TEST_F(SeamTest, AKilledMapIsPendingAgainAndNotAFailure) {
  Make();
  uint32_t w = h_->AddWorker(1, 1);
  uint64_t job = h_->Submit(h_->SyntheticSpec(2, 1));
  Then([](const Snapshot& s) { return Assign({Map(s, 0, s.heartbeating)}); });
  Beat(w);
  ASSERT_EQ(h_->worker(w).maps.size(), 1u);
  const proto::Assignment first = h_->worker(w).maps[0];
  // A kill of an attempt that does not run is ignored; the real one is sent back at once.
  Then([&](const Snapshot& s) {
    Decision d;
    d.kills.push_back({s.jobs[0].id, sched::TaskKind::kMap, 0, first.attempt() + 7, "bogus"});
    d.kills.push_back({s.jobs[0].id, sched::TaskKind::kMap, 1, first.attempt(), "not running"});
    d.kills.push_back({s.jobs[0].id, sched::TaskKind::kMap, 0, first.attempt(), "straggler"});
    return d;
  });
  proto::HeartbeatReply reply = Beat(w);
  ASSERT_EQ(reply.kills_size(), 1);
  EXPECT_EQ(reply.kills(0).job_id(), job);
  EXPECT_EQ(reply.kills(0).kind(), proto::MAP);
  EXPECT_EQ(reply.kills(0).index(), 0u);
  EXPECT_EQ(reply.kills(0).attempt(), first.attempt());
  proto::JobStatus st = h_->Status(job);
  EXPECT_EQ(st.maps_running(), 0u);
  EXPECT_EQ(Counter(st, kKilledMapsCounter), 1);
  EXPECT_EQ(Counter(st, kFailedMapsCounter), 0);

  // The worker's KILLED (or late FAILED) report of it is stale: still no failure, and the
  // freed slot takes a new attempt.
  Then([](const Snapshot& s) {
    EXPECT_EQ(WorkerIn(s, s.heartbeating).free_map, 1) << "the killed attempt's slot is free";
    EXPECT_EQ(s.jobs.at(0).pending_maps, (std::vector<int>{0, 1}));
    return Assign({Map(s, 0, s.heartbeating)});
  });
  Beat(w, {TrackerHarness::MapReport(first, proto::KILLED), TrackerHarness::MapReport(first, proto::FAILED)});
  EXPECT_EQ(Counter(h_->Status(job), kFailedMapsCounter), 0);
  ASSERT_EQ(h_->worker(w).maps.size(), 2u);
  EXPECT_GT(h_->worker(w).maps[1].attempt(), first.attempt());
}

TEST_F(SeamTest, AKilledReduceIsReadyAgainOnItsWorker) {
  Make();
  uint32_t w = h_->AddWorker(1, 1);
  uint64_t job = h_->Submit(h_->SyntheticSpec(1, 1));
  Then([](const Snapshot& s) { return Assign({Map(s, 0, s.heartbeating)}); });
  Beat(w);
  h_->FinishMaps(w);
  ASSERT_EQ(h_->worker(w).placed.size(), 1u);
  proto::Assignment placed = h_->worker(w).placed[0];
  Then([](const Snapshot& s) {
    EXPECT_EQ(s.jobs.at(0).ready_reduces.size(), 1u);
    sched::Assignment a{s.jobs[0].id, sched::TaskKind::kReduce, 0, s.heartbeating, sched::SlotKind::kReduce, false};
    return Assign({a});
  });
  Beat(w, {h_->ReduceReport(placed, proto::READY, 1)});
  ASSERT_EQ(h_->worker(w).reduces.size(), 1u);
  const uint32_t attempt = h_->worker(w).reduces[0].attempt();
  Then([&](const Snapshot& s) {
    EXPECT_EQ(s.jobs.at(0).running.size(), 1u);
    return KillsOf({{s.jobs[0].id, sched::TaskKind::kReduce, 0, attempt, "test"}});
  });
  proto::HeartbeatReply reply = Beat(w);
  ASSERT_EQ(reply.kills_size(), 1);
  EXPECT_EQ(reply.kills(0).kind(), proto::REDUCE);
  EXPECT_EQ(reply.kills(0).attempt(), attempt);
  Then([&](const Snapshot& s) {
    EXPECT_EQ(s.jobs.at(0).ready_reduces.size(), 1u) << "ready again, where its data is";
    EXPECT_EQ(s.jobs.at(0).reduces_running, 0);
    return Decision{};
  });
  Beat(w);
  EXPECT_EQ(Counter(h_->Status(job), kKilledReducesCounter), 1);
  EXPECT_EQ(Counter(h_->Status(job), kFailedReducesCounter), 0);
}

TEST_F(SeamTest, AClusterPolicySeesEveryFreeSlotAndReservesAnotherWorkersTask) {
  Make(sched::SnapshotScope::kCluster);
  uint32_t a = h_->AddWorker(1, 1);
  uint32_t b = h_->AddWorker(2, 1);
  h_->Submit(h_->SyntheticSpec(2, 1));
  Then([&](const Snapshot& s) {
    EXPECT_EQ(WorkerIn(s, a).free_map, 1);
    EXPECT_EQ(WorkerIn(s, b).free_map, 2) << "not the heartbeating worker's, seen all the same";
    return Assign({Map(s, 0, a), Map(s, 1, b)});
  });
  proto::HeartbeatReply reply = Beat(a);
  EXPECT_EQ(reply.assignments_size(), 1);
  EXPECT_EQ(h_->worker(a).maps.size(), 1u);
  EXPECT_TRUE(h_->worker(b).maps.empty()) << "b hears of it with its own heartbeat";
  Then([&](const Snapshot& s) {
    EXPECT_EQ(WorkerIn(s, b).free_map, 1) << "the reserved slot is held";
    EXPECT_EQ(s.jobs.at(0).maps_running, 2);
    return Decision{};
  });
  Beat(b);
  ASSERT_EQ(h_->worker(b).maps.size(), 1u);
  EXPECT_EQ(h_->worker(b).maps[0].index(), 1u);
}

TEST_F(SeamTest, KillingAReservedAttemptBeforeItIsDeliveredWithdrawsIt) {
  Make(sched::SnapshotScope::kCluster);
  uint32_t a = h_->AddWorker(1, 1);
  uint32_t b = h_->AddWorker(1, 1);
  uint64_t job = h_->Submit(h_->SyntheticSpec(1, 1));
  Then([&](const Snapshot& s) { return Assign({Map(s, 0, b)}); });
  Beat(a);
  Then([&](const Snapshot& s) {
    const auto& running = s.jobs.at(0).running;
    EXPECT_EQ(running.size(), 1u);
    uint32_t attempt = running.empty() ? 0 : running[0].attempt;
    return KillsOf({{s.jobs[0].id, sched::TaskKind::kMap, 0, attempt, "changed its mind"}});
  });
  Beat(a);
  proto::HeartbeatReply reply = Beat(b);
  EXPECT_EQ(reply.assignments_size(), 0) << "withdrawn, not sent";
  EXPECT_EQ(reply.kills_size(), 0) << "nothing started, nothing to kill";
  EXPECT_EQ(h_->Status(job).maps_running(), 0u);
}

TEST_F(SeamTest, AQueueAtAWorkerBlacklistedForTheJobReturnsToPending) {
  TrackerOptions o = TrackerHarness::DefaultOptions();
  o.blacklist_after = 1;
  Make(sched::SnapshotScope::kHeartbeat, o);
  uint32_t a = h_->AddWorker(1, 1);
  uint32_t b = h_->AddWorker(1, 1);
  h_->AddWorker(1, 1);
  h_->AddWorker(1, 1);  // one blacklisted worker of four is within the 33% threshold
  h_->Submit(h_->SyntheticSpec(2, 1));
  Then([&](const Snapshot& s) {
    Decision d = Assign({Map(s, 1, b)});
    d.queue = {{s.jobs[0].id, 0, b}};
    return d;
  });
  Beat(b);
  ASSERT_EQ(h_->worker(b).maps.size(), 1u);
  Then([&](const Snapshot& s) {
    EXPECT_EQ(s.jobs.at(0).queued_maps.size(), 1u);
    return Decision{};
  });
  Beat(a);
  // b fails the job's map: blacklisted, and its queue is released before the next round.
  Then([&](const Snapshot& s) {
    EXPECT_TRUE(s.jobs.at(0).queued_maps.empty());
    EXPECT_TRUE(s.jobs.at(0).pending_maps.empty()) << "none of the job's maps for b";
    return Decision{};
  });
  Beat(b, {TrackerHarness::MapReport(h_->worker(b).maps[0], proto::FAILED)});
  Then([&](const Snapshot& s) {
    EXPECT_EQ(s.jobs.at(0).pending_maps, (std::vector<int>{0, 1}));
    return QueueOf({{s.jobs[0].id, 0, b}});  // and b takes no new queue entry
  });
  Beat(a);
  Then([&](const Snapshot& s) {
    EXPECT_TRUE(s.jobs.at(0).queued_maps.empty());
    return Decision{};
  });
  Beat(a);
}

TEST_F(SeamTest, AHeartbeatPolicyCannotAssignToAnotherWorker) {
  Make(sched::SnapshotScope::kHeartbeat);
  uint32_t a = h_->AddWorker(1, 1);
  uint32_t b = h_->AddWorker(1, 1);
  uint64_t job = h_->Submit(h_->SyntheticSpec(1, 1));
  Then([&](const Snapshot& s) {
    EXPECT_EQ(WorkerIn(s, b).free_map, 0) << "only the heartbeating worker's slots show";
    return Assign({Map(s, 0, b)});
  });
  Beat(a);
  Beat(b);
  EXPECT_TRUE(h_->worker(b).maps.empty());
  EXPECT_EQ(h_->Status(job).maps_running(), 0u);
}

TEST_F(SeamTest, AQueuedMapRunsOnlyOnItsWorkerAndReturnsWhenTheWorkerIsLost) {
  Make();
  uint32_t a = h_->AddWorker(1, 1);
  uint32_t b = h_->AddWorker(1, 1);
  h_->Submit(h_->SyntheticSpec(2, 1));
  Then([&](const Snapshot& s) {
    Decision d;
    d.queue = {{s.jobs[0].id, 0, b}, {s.jobs[0].id, 1, 999}};  // the second: no such worker
    d.assignments = {Map(s, 0, a)};                            // queued at b: refused
    return d;
  });
  Beat(a);
  EXPECT_TRUE(h_->worker(a).maps.empty());
  Then([&](const Snapshot& s) {
    const sched::JobView& j = s.jobs.at(0);
    EXPECT_EQ(j.pending_maps, (std::vector<int>{1}));
    EXPECT_EQ(j.queued_maps.size(), 1u);
    EXPECT_EQ(j.queued_maps.at(0).index, 0);
    EXPECT_EQ(j.queued_maps.at(0).worker, b);
    EXPECT_EQ(WorkerIn(s, b).queued_maps, 1);
    EXPECT_EQ(WorkerIn(s, a).queued_maps, 0);
    return QueueOf({{s.jobs[0].id, 1, b}});
  });
  Beat(a);
  // b leaves without running its queue: both maps are anyone's again.
  for (int i = 0; i < 12; ++i) {
    h_->clock().Advance(1);
    h_->Beat(a);
    h_->tracker().Tick();
  }
  ASSERT_EQ(h_->tracker().worker_count(), 1u);
  Then([&](const Snapshot& s) {
    EXPECT_TRUE(s.jobs.at(0).queued_maps.empty());
    EXPECT_EQ(s.jobs.at(0).pending_maps, (std::vector<int>{0, 1}));
    return Assign({Map(s, 0, a)});
  });
  Beat(a);
  EXPECT_EQ(h_->worker(a).maps.size(), 1u);
}

TEST_F(SeamTest, ABackupThatSucceedsFirstCountsAndTheFirstAttemptIsKilled) {
  Make();
  uint32_t a = h_->AddWorker(1, 1);
  uint32_t b = h_->AddWorker(1, 1);
  uint64_t job = h_->Submit(h_->SyntheticSpec(1, 1));
  Then([&](const Snapshot& s) { return Assign({Map(s, 0, a)}); });
  Beat(a);
  ASSERT_EQ(h_->worker(a).maps.size(), 1u);
  const proto::Assignment first = h_->worker(a).maps[0];
  // Backups that cannot be: on the worker that runs it, of a task not running (after the
  // valid one, which took the map's only backup).
  Then([&](const Snapshot& s) {
    return Assign({Map(s, 0, b, /*backup=*/true), Map(s, 0, b, true)});
  });
  Beat(b);
  ASSERT_EQ(h_->worker(b).maps.size(), 1u) << "one backup per task";
  const proto::Assignment backup = h_->worker(b).maps[0];
  EXPECT_GT(backup.attempt(), first.attempt());
  Then([&](const Snapshot& s) {
    const auto& running = s.jobs.at(0).running;
    EXPECT_EQ(running.size(), 2u);
    EXPECT_EQ(s.jobs.at(0).maps_running, 1) << "one task, two attempts";
    if (running.size() == 2) {
      EXPECT_FALSE(running[0].backup);
      EXPECT_TRUE(running[1].backup);
      EXPECT_EQ(running[1].worker, b);
    }
    return Assign({Map(s, 0, a, true)});  // on its own worker: refused
  });
  Beat(a);
  EXPECT_EQ(h_->worker(a).maps.size(), 1u);

  h_->FinishMaps(b);
  proto::JobStatus st = h_->Status(job);
  EXPECT_EQ(st.maps_done(), 1u);
  EXPECT_EQ(Counter(st, kKilledMapsCounter), 1);
  proto::HeartbeatReply reply = Beat(a);
  ASSERT_EQ(reply.kills_size(), 1) << "the loser is killed";
  EXPECT_EQ(reply.kills(0).attempt(), first.attempt());
  // It finished anyway before the kill arrived: its output is superseded and deleted.
  h_->FinishMaps(a);
  ASSERT_EQ(h_->worker(a).deleted.size(), 1u);
  EXPECT_EQ(h_->worker(a).deleted[0].attempt(), first.attempt());
  EXPECT_EQ(h_->Status(job).maps_done(), 1u);
  EXPECT_EQ(Counter(h_->Status(job), kFailedMapsCounter), 0);
  ASSERT_FALSE(h_->worker(a).placed.empty() && h_->worker(b).placed.empty());
  for (const auto& l : h_->worker(a).locations) EXPECT_EQ(l.attempt(), backup.attempt());
  for (const auto& l : h_->worker(b).locations) EXPECT_EQ(l.attempt(), backup.attempt());
}

TEST_F(SeamTest, WhenTheFirstAttemptsWorkerIsLostTheBackupRunsOn) {
  Make();
  uint32_t a = h_->AddWorker(1, 1);
  uint32_t b = h_->AddWorker(1, 1);
  uint64_t job = h_->Submit(h_->SyntheticSpec(1, 1));
  Then([&](const Snapshot& s) { return Assign({Map(s, 0, a)}); });
  Beat(a);
  Then([&](const Snapshot& s) { return Assign({Map(s, 0, b, true)}); });
  Beat(b);
  ASSERT_EQ(h_->worker(b).maps.size(), 1u);
  const proto::Assignment backup = h_->worker(b).maps[0];
  for (int i = 0; i < 12; ++i) {  // a falls silent
    h_->clock().Advance(1);
    h_->Beat(b);
    h_->tracker().Tick();
  }
  ASSERT_EQ(h_->tracker().worker_count(), 1u);
  Then([&](const Snapshot& s) {
    const auto& running = s.jobs.at(0).running;
    EXPECT_EQ(running.size(), 1u);
    if (!running.empty()) {
      EXPECT_EQ(running[0].worker, b);
      EXPECT_EQ(running[0].attempt, backup.attempt());
      EXPECT_FALSE(running[0].backup) << "it is the task's attempt now";
    }
    EXPECT_TRUE(s.jobs.at(0).pending_maps.empty()) << "not run a third time";
    return Decision{};
  });
  Beat(b);
  h_->FinishMaps(b);
  EXPECT_EQ(h_->Status(job).maps_done(), 1u);
}

TEST_F(SeamTest, AFailedBackupIsCountedAndTheFirstAttemptRunsOn) {
  Make();
  uint32_t a = h_->AddWorker(1, 1);
  uint32_t b = h_->AddWorker(1, 1);
  uint64_t job = h_->Submit(h_->SyntheticSpec(1, 1));
  Then([&](const Snapshot& s) { return Assign({Map(s, 0, a)}); });
  Beat(a);
  Then([&](const Snapshot& s) { return Assign({Map(s, 0, b, true)}); });
  Beat(b);
  ASSERT_EQ(h_->worker(b).maps.size(), 1u);
  Beat(b, {TrackerHarness::MapReport(h_->worker(b).maps[0], proto::FAILED)});
  proto::JobStatus st = h_->Status(job);
  EXPECT_EQ(Counter(st, kFailedMapsCounter), 1);
  EXPECT_EQ(st.maps_running(), 1u) << "still running on a";
  h_->FinishMaps(a);
  EXPECT_EQ(h_->Status(job).maps_done(), 1u);
  EXPECT_TRUE(h_->worker(a).kills.empty());
}

// Reduce backups (docs/speculation.md, "Reduces"). One map on a, done; reducer 0 runs on a,
// reducer 1 is placed on b and keeps fetching (so the job runs on). Returns r0's attempt.
class ReduceBackupTest : public SeamTest {
 protected:
  proto::Assignment RunReduceOnA() {
    Make();
    a_ = h_->AddWorker(1, 1);
    b_ = h_->AddWorker(1, 1);
    job_ = h_->Submit(h_->SyntheticSpec(/*maps=*/1, /*reduces=*/2));
    Then([&](const Snapshot& s) { return Assign({Map(s, 0, a_)}); });
    Beat(a_);
    h_->FinishMaps(a_);
    EXPECT_EQ(h_->worker(a_).placed.size(), 1u);
    EXPECT_EQ(h_->worker(b_).placed.size(), 0u);
    Beat(b_);
    EXPECT_EQ(h_->worker(b_).placed.size(), 1u);
    EXPECT_EQ(h_->worker(b_).placed.at(0).index(), 1u);
    Then([&](const Snapshot& s) { return Assign({Reduce(s, 0, a_)}); });
    Beat(a_, {h_->ReduceReport(h_->worker(a_).placed.at(0), proto::READY, 1)});
    EXPECT_EQ(h_->worker(a_).reduces.size(), 1u);
    return h_->worker(a_).reduces.at(0);
  }
  // Places r0's backup on b and brings it to running; returns its run assignment.
  proto::Assignment StartBackupOnB() {
    Then([&](const Snapshot& s) { return Assign({Reduce(s, 0, b_, /*backup=*/true), Reduce(s, 0, b_, true)}); });
    Beat(b_);
    EXPECT_EQ(h_->worker(b_).placed.size(), 2u) << "one backup per task";
    const proto::Assignment place = h_->worker(b_).placed.back();
    EXPECT_EQ(place.index(), 0u);
    Then([&](const Snapshot& s) {
      EXPECT_EQ(s.jobs.at(0).reduce_backups_fetching, std::vector<int>{0});
      EXPECT_EQ(WorkerIn(s, b_).free_reduce, 0) << "the backup holds its slot while it fetches";
      return Decision{};
    });
    Beat(b_);
    bool located = false;
    for (const auto& l : h_->worker(b_).locations) located = located || l.map_index() == 0;
    EXPECT_TRUE(located) << "the backup's worker learns where the map output is";
    Beat(b_, {h_->ReduceReport(place, proto::READY, 1)});
    EXPECT_EQ(h_->worker(b_).reduces.size(), 1u) << "holding every run, the backup runs";
    return h_->worker(b_).reduces.empty() ? proto::Assignment() : h_->worker(b_).reduces.at(0);
  }
  static void WriteOutput(const proto::Assignment& a, const std::string& text) {
    ASSERT_TRUE(MakeDirs(std::filesystem::path(a.temp_output()).parent_path().string()).ok());
    ASSERT_TRUE(WriteStringToFile(a.temp_output(), text).ok());
  }

  uint32_t a_ = 0, b_ = 0;
  uint64_t job_ = 0;
};

TEST_F(ReduceBackupTest, ABackupThatSucceedsFirstCommitsAndTheOtherIsKilled) {
  const proto::Assignment first = RunReduceOnA();
  const proto::Assignment backup = StartBackupOnB();
  EXPECT_GT(backup.attempt(), first.attempt());
  EXPECT_NE(backup.temp_output(), first.temp_output());
  Then([&](const Snapshot& s) {
    const auto& running = s.jobs.at(0).running;
    EXPECT_EQ(running.size(), 2u);
    EXPECT_EQ(s.jobs.at(0).reduces_running, 1) << "one task, two attempts";
    if (running.size() == 2) {
      EXPECT_TRUE(running[1].backup);
    }
    return Decision{};
  });
  Beat(a_);

  WriteOutput(backup, "from the backup\n");
  h_->Beat(b_, {h_->ReduceReport(backup, proto::SUCCEEDED, 1)});
  proto::JobStatus st = h_->Status(job_);
  EXPECT_EQ(st.reduces_done(), 1u);
  EXPECT_EQ(Counter(st, kBackupReducesCounter), 1);
  EXPECT_EQ(Counter(st, kBackupReducesWonCounter), 1);
  EXPECT_EQ(Counter(st, kKilledReducesCounter), 1) << "the loser counts killed";
  EXPECT_EQ(Counter(st, kFailedReducesCounter), 0);
  proto::HeartbeatReply reply = Beat(a_);
  ASSERT_EQ(reply.kills_size(), 1) << "the loser is killed";
  EXPECT_EQ(reply.kills(0).attempt(), first.attempt());
  EXPECT_EQ(reply.kills(0).kind(), proto::REDUCE);
  // It finished anyway before the kill arrived: its file under _temporary goes at once.
  WriteOutput(first, "from the first attempt\n");
  Beat(a_, {h_->ReduceReport(first, proto::SUCCEEDED, 1)});
  EXPECT_FALSE(PathExists(std::filesystem::path(first.temp_output()).parent_path().string()));
  st = h_->Status(job_);
  EXPECT_EQ(st.reduces_done(), 1u) << "committed once";
  EXPECT_EQ(Counter(st, kBackupReducesWonCounter), 1);
  // OUTPUT/_temporary/attempt-r-00000-A/part-r-00000 was renamed to OUTPUT/part-r-00000.
  const std::filesystem::path out = std::filesystem::path(backup.temp_output()).parent_path().parent_path().parent_path();
  const std::string committed = (out / "part-r-00000").string();
  auto text = ReadFileToString(committed);
  ASSERT_TRUE(text.ok()) << committed;
  EXPECT_EQ(*text, "from the backup\n");
}

TEST_F(ReduceBackupTest, ABackupStillFetchingIsDroppedWhenTheFirstAttemptCommits) {
  const proto::Assignment first = RunReduceOnA();
  Then([&](const Snapshot& s) { return Assign({Reduce(s, 0, b_, /*backup=*/true)}); });
  Beat(b_);
  ASSERT_EQ(h_->worker(b_).placed.size(), 2u);
  const proto::Assignment place = h_->worker(b_).placed.back();
  WriteOutput(first, "first\n");
  h_->Beat(a_, {h_->ReduceReport(first, proto::SUCCEEDED, 1)});
  proto::JobStatus st = h_->Status(job_);
  EXPECT_EQ(st.reduces_done(), 1u);
  EXPECT_EQ(Counter(st, kKilledReducesCounter), 0) << "no attempt had started";
  EXPECT_EQ(Counter(st, kBackupReducesWonCounter), 0);
  Then([&](const Snapshot& s) {
    EXPECT_TRUE(s.jobs.at(0).reduce_backups_fetching.empty());
    EXPECT_EQ(WorkerIn(s, b_).free_reduce, 1) << "its slot is free again";
    return Decision{};
  });
  Beat(b_, {h_->ReduceReport(place, proto::READY, 1)});
  EXPECT_EQ(h_->worker(b_).reduces.size(), 0u) << "a dropped backup never runs";
}

TEST_F(ReduceBackupTest, WhenTheFirstAttemptsWorkerIsLostTheRunningBackupCommits) {
  RunReduceOnA();
  const proto::Assignment backup = StartBackupOnB();
  for (int i = 0; i < 12; ++i) {  // a falls silent
    h_->clock().Advance(1);
    h_->Beat(b_);
    h_->tracker().Tick();
  }
  ASSERT_EQ(h_->tracker().worker_count(), 1u);
  Then([&](const Snapshot& s) {
    EXPECT_EQ(s.jobs.at(0).reduces_running, 1);
    bool on_b = false;
    for (const auto& r : s.jobs.at(0).running) {
      if (r.kind == sched::TaskKind::kReduce && r.index == 0) {
        on_b = r.worker == b_ && r.attempt == backup.attempt() && !r.backup;
      }
    }
    EXPECT_TRUE(on_b) << "the backup is the task's attempt now";
    return Decision{};
  });
  Beat(b_);
  WriteOutput(backup, "backup\n");
  Beat(b_, {h_->ReduceReport(backup, proto::SUCCEEDED, 1)});
  proto::JobStatus st = h_->Status(job_);
  EXPECT_EQ(st.reduces_done(), 1u);
  EXPECT_EQ(Counter(st, kFailedReducesCounter), 0);
}

TEST_F(ReduceBackupTest, AFailedBackupIsCountedAndTheFirstAttemptRunsOn) {
  const proto::Assignment first = RunReduceOnA();
  const proto::Assignment backup = StartBackupOnB();
  Beat(b_, {h_->ReduceReport(backup, proto::FAILED, 1)});
  proto::JobStatus st = h_->Status(job_);
  EXPECT_EQ(Counter(st, kFailedReducesCounter), 1);
  EXPECT_EQ(st.reduces_running(), 1u) << "still running on a";
  WriteOutput(first, "first\n");
  Beat(a_, {h_->ReduceReport(first, proto::SUCCEEDED, 1)});
  EXPECT_EQ(h_->Status(job_).reduces_done(), 1u);
  EXPECT_TRUE(h_->worker(a_).kills.empty());
}

}  // namespace
}  // namespace mr::master
