// The master side of the scheduler seam (scheduler/snapshot.h) on a manual clock: what the
// snapshot shows (job parameters, running attempts with progress, measured map rates,
// queues, every worker's free slots for a kCluster policy) and how the tracker honours a
// Decision's kills, queue entries, backup assignments and other workers' assignments, and
// ignores invalid ones. A scripted fake policy decides; the test plays the workers.
#include "seam_fixture.h"

namespace mr::master::seam_test {
namespace {

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

}  // namespace
}  // namespace mr::master::seam_test
