// The scheduler seam's backups (speculative execution, docs/speculation.md): a backup map or
// reduce that wins counts and the other attempt is killed; lost workers and failed backups.
#include "seam_fixture.h"

namespace mr::master::seam_test {
namespace {

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
}  // namespace mr::master::seam_test
