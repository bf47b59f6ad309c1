// The worker's slot runner (worker/slot_runner.h) with real synthetic map attempts and a
// manual clock for report times: RUNNING reports with progress at most once per interval,
// a kill of one attempt, and a task's backup running beside its original. Waits are polls
// with a real-time deadline.
#include "worker/slot_runner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <thread>

#include "common/file_util.h"
#include "shuffle/map_output.h"

namespace mr::worker {
namespace {

constexpr uint64_t kJob = 5;

// A synthetic map that burns CPU until killed (1000 s planned).
proto::Assignment LongMap(uint32_t index, uint32_t attempt) {
  proto::Assignment a;
  a.set_job_id(kJob);
  a.set_kind(proto::MAP);
  a.set_index(index);
  a.set_attempt(attempt);
  a.mutable_spec()->set_job("synthetic");
  (*a.mutable_spec()->mutable_params())["map_seconds"] = "1000";
  a.mutable_spec()->set_reducers(1);
  return a;
}

proto::KillTask KillOf(const proto::Assignment& a) {
  proto::KillTask k;
  k.set_job_id(a.job_id());
  k.set_kind(a.kind());
  k.set_index(a.index());
  k.set_attempt(a.attempt());
  return k;
}

class SlotRunnerTest : public ::testing::Test {
 protected:
  SlotRunnerTest() {
    shuffle::FetchScheduler::Options fo;
    fo.work_dir = tmp_.path();
    fo.clock = &clock_;
    fo.fetch = [](const shuffle::FetchTarget&, const std::string&) -> Result<shuffle::FetchResult> {
      return Status::Internal("no fetches in this test");
    };
    fetches_ = std::make_unique<shuffle::FetchScheduler>(std::move(fo));
    runner_ = MakeRunner(/*sync_map_outputs=*/true);
  }

  std::unique_ptr<SlotRunner> MakeRunner(bool sync_map_outputs) {
    SlotRunner::Options o;
    o.map_slots = 2;
    o.reduce_slots = 1;
    o.context.work_dir = tmp_.path();
    o.context.clock = &clock_;
    o.context.fetches = fetches_.get();
    o.context.sync_map_outputs = sync_map_outputs;
    return std::make_unique<SlotRunner>(std::move(o));
  }

  proto::Heartbeat Take() {
    proto::Heartbeat hb;
    runner_->TakeReports(&hb);
    return hb;
  }
  static std::vector<proto::TaskReport> WithState(const proto::Heartbeat& hb, proto::TaskState state) {
    std::vector<proto::TaskReport> out;
    for (const auto& r : hb.reports()) {
      if (r.state() == state) out.push_back(r);
    }
    return out;
  }
  // Takes reports until a final (non-RUNNING) one arrives or 30 s pass.
  std::optional<proto::TaskReport> WaitFinal(proto::Heartbeat* last = nullptr) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      proto::Heartbeat hb = Take();
      for (const auto& r : hb.reports()) {
        if (r.state() != proto::RUNNING) {
          if (last != nullptr) *last = hb;
          return r;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return std::nullopt;
  }

  TempDir tmp_{"slots"};
  ManualClock clock_{1000};
  std::unique_ptr<shuffle::FetchScheduler> fetches_;
  std::unique_ptr<SlotRunner> runner_;  // after fetches_: destroyed first
};

// A quick synthetic map (no work, about 4 KB of output).
proto::Assignment QuickMap(uint32_t index) {
  proto::Assignment a = LongMap(index, 1);
  (*a.mutable_spec()->mutable_params())["map_seconds"] = "0";
  (*a.mutable_spec()->mutable_params())["map_bytes"] = "4096";
  return a;
}

// The context's sync_map_outputs (WorkerOptions::sync_map_outputs; false under `mr worker
// --ephemeral-work-dir`) decides whether a map's output index is fsynced before its rename:
// one fsync per map when true, none when false, and the index is whole either way.
TEST_F(SlotRunnerTest, MapOutputIndexIsSyncedUnlessTheWorkDirIsEphemeral) {
  for (const bool sync : {true, false}) {
    SCOPED_TRACE(sync ? "synced" : "ephemeral");
    runner_ = MakeRunner(sync);
    const uint32_t index = sync ? 0 : 1;
    const uint64_t before = AtomicWritesSynced();
    runner_->Start(QuickMap(index));
    auto final_report = WaitFinal();
    ASSERT_TRUE(final_report.has_value());
    ASSERT_EQ(final_report->state(), proto::SUCCEEDED) << final_report->error();
    EXPECT_EQ(AtomicWritesSynced() - before, sync ? 1u : 0u);
    auto index_file = shuffle::MapOutputIndex::ReadFrom(shuffle::MapOutputIndexPath(tmp_.path(), kJob, index, 1));
    ASSERT_TRUE(index_file.ok()) << index_file.status().ToString();
    EXPECT_EQ(index_file->partitions.size(), 1u);
  }
}

TEST_F(SlotRunnerTest, RunningAttemptReportsProgressAtMostOncePerInterval) {
  const proto::Assignment a = LongMap(0, 1);
  runner_->Start(a);
  proto::Heartbeat hb = Take();
  EXPECT_EQ(hb.free_map_slots(), 1u);
  auto running = WithState(hb, proto::RUNNING);
  ASSERT_EQ(running.size(), 1u);
  EXPECT_EQ(running[0].attempt(), 1u);
  EXPECT_DOUBLE_EQ(running[0].start_time(), 1000);
  EXPECT_TRUE(WithState(Take(), proto::RUNNING).empty()) << "a second report within the interval";
  clock_.Advance(0.2);  // the default interval is 0.25 s
  EXPECT_TRUE(WithState(Take(), proto::RUNNING).empty()) << "a second report within the interval";
  // One report per interval of the clock, and the burn's progress shows in them.
  double progress = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (progress <= 0 && std::chrono::steady_clock::now() < deadline) {
    clock_.Advance(1.5);  // past the interval, clear of rounding at its edge
    running = WithState(Take(), proto::RUNNING);
    ASSERT_EQ(running.size(), 1u);
    progress = running[0].progress();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_GT(progress, 0);
  EXPECT_LT(progress, 1);
  ASSERT_TRUE(runner_->Kill(KillOf(a)));
  ASSERT_TRUE(WaitFinal().has_value());
}

TEST_F(SlotRunnerTest, KillEndsTheAttemptKilledAndFreesItsSlot) {
  const proto::Assignment a = LongMap(3, 7);
  runner_->Start(a);
  proto::KillTask other = KillOf(a);
  other.set_attempt(8);
  EXPECT_FALSE(runner_->Kill(other)) << "no such attempt here";
  ASSERT_TRUE(runner_->Kill(KillOf(a)));
  proto::Heartbeat hb;
  auto final_report = WaitFinal(&hb);
  ASSERT_TRUE(final_report.has_value());
  EXPECT_EQ(final_report->state(), proto::KILLED);
  EXPECT_EQ(final_report->attempt(), 7u);
  EXPECT_NE(final_report->error().find("killed by the master"), std::string::npos) << final_report->error();
  EXPECT_EQ(hb.free_map_slots(), 2u);
  EXPECT_TRUE(WithState(hb, proto::RUNNING).empty());
  EXPECT_FALSE(PathExists(shuffle::MapOutputIndexPath(tmp_.path(), kJob, 3, 7)));
  EXPECT_FALSE(PathExists(shuffle::MapOutputDataPath(tmp_.path(), kJob, 3, 7)));
  runner_->Reap();
  EXPECT_FALSE(runner_->Kill(KillOf(a))) << "an ended attempt is not killed again";
}

TEST_F(SlotRunnerTest, BackupRunsBesideItsOriginalAndEachIsKilledAlone) {
  const proto::Assignment original = LongMap(2, 1);
  const proto::Assignment backup = LongMap(2, 2);
  runner_->Start(original);
  runner_->Start(backup);
  proto::Heartbeat hb = Take();
  EXPECT_EQ(hb.free_map_slots(), 0u);
  auto running = WithState(hb, proto::RUNNING);
  ASSERT_EQ(running.size(), 2u);
  EXPECT_NE(running[0].attempt(), running[1].attempt());

  ASSERT_TRUE(runner_->Kill(KillOf(backup)));
  auto killed = WaitFinal(&hb);
  ASSERT_TRUE(killed.has_value());
  EXPECT_EQ(killed->attempt(), 2u);
  EXPECT_EQ(killed->state(), proto::KILLED);
  EXPECT_EQ(hb.free_map_slots(), 1u);
  clock_.Advance(1.5);
  running = WithState(Take(), proto::RUNNING);
  ASSERT_EQ(running.size(), 1u);
  EXPECT_EQ(running[0].attempt(), 1u) << "the original still runs";

  ASSERT_TRUE(runner_->Kill(KillOf(original)));
  killed = WaitFinal();
  ASSERT_TRUE(killed.has_value());
  EXPECT_EQ(killed->attempt(), 1u);
  EXPECT_EQ(killed->state(), proto::KILLED);
}

}  // namespace
}  // namespace mr::worker
