// A slow or straggling worker's map holds its slot after its work (worker/task/slot_hold.h):
// the hold's length by hand, its cancellation, and a real map task's holds end to end.
#include "worker/task/slot_hold.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "common/clock.h"
#include "common/file_util.h"
#include "common/straggler.h"
#include "shuffle/map_output.h"
#include "task_test_util.h"
#include "worker/task/map_task.h"

namespace mr::worker {
namespace {

TEST(SlotHoldTest, SpeedHoldWorkedByHand) {
  EXPECT_DOUBLE_EQ(SpeedHoldSeconds(0.5, 2.0, true), 2.0);   // (1/0.5 − 1) × 2
  EXPECT_DOUBLE_EQ(SpeedHoldSeconds(0.25, 1.0, true), 3.0);  // (1/0.25 − 1) × 1
  EXPECT_DOUBLE_EQ(SpeedHoldSeconds(0.8, 4.0, true), 1.0);   // (1.25 − 1) × 4
  EXPECT_EQ(SpeedHoldSeconds(1.0, 2.0, true), 0.0);          // full speed
  EXPECT_EQ(SpeedHoldSeconds(3.0, 2.0, true), 0.0);          // real work cannot be sped up
  EXPECT_EQ(SpeedHoldSeconds(0.5, 2.0, false), 0.0);         // synthetic: scales its own work
  EXPECT_EQ(WorkFractionScale(0.5, true), 0.5);
  EXPECT_EQ(WorkFractionScale(0.5, false), 1.0);
  EXPECT_EQ(WorkFractionScale(2.0, true), 1.0);
}

TEST(SlotHoldTest, HoldWaitsTicksAndFinishesTheFraction) {
  std::atomic<uint64_t> progress{0};
  std::atomic<double> fraction{0.5};
  const double t0 = MonotonicSeconds();
  ASSERT_TRUE(HoldSlot(0.12, nullptr, &progress, &fraction).ok());
  const double took = MonotonicSeconds() - t0;
  EXPECT_GE(took, 0.12);
  EXPECT_LT(took, 2.0);
  EXPECT_GE(progress.load(), 2u) << "a held attempt must not look hung";
  EXPECT_DOUBLE_EQ(fraction.load(), 1.0);
  EXPECT_TRUE(HoldSlot(0, nullptr, nullptr, nullptr).ok());
}

// A kill during a 60 s hold ends it within a few steps, not at the end of the hold.
TEST(SlotHoldTest, CancelEndsTheHoldPromptly) {
  std::atomic<bool> cancel{false};
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancel.store(true);
  });
  const double t0 = MonotonicSeconds();
  Status s = HoldSlot(60, &cancel, nullptr, nullptr);
  const double took = MonotonicSeconds() - t0;
  killer.join();
  EXPECT_EQ(s.code(), StatusCode::kAborted);
  EXPECT_LT(took, 2.0);
  cancel.store(true);
  EXPECT_EQ(HoldSlot(60, &cancel, nullptr, nullptr).code(), StatusCode::kAborted) << "already cancelled";
}

class MapHoldTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string text;
    for (int i = 0; i < 20000; ++i) text += "lorem ipsum dolor sit amet " + std::to_string(i) + "\n";
    input_ = JoinPath(dir_.path(), "input");
    ASSERT_TRUE(WriteStringToFile(input_, text).ok());
    size_ = text.size();
    auto job = jobs::CreateJob("wordcount", {});
    ASSERT_TRUE(job.ok()) << job.status().ToString();
    job_ = std::move(*job);
  }
  MapTaskSpec Spec() {
    MapTaskSpec s;
    s.job_id = 5;
    s.map_index = 2;
    s.attempt = 1;
    s.job = job_.get();
    s.split = jobs::Split{input_, 0, 0, size_, ""};
    s.input_source = &jobs::LocalInputs();
    s.num_reduces = 2;
    s.work_dir = dir_.path();
    return s;
  }
  TempDir dir_;
  std::string input_;
  uint64_t size_ = 0;
  std::unique_ptr<jobs::Job> job_;
};

// At speed 0.5 a word-count map holds its slot as long again as its work took, and says so.
TEST_F(MapHoldTest, HalfSpeedHoldsAsLongAsTheWork) {
  MapTaskSpec spec = Spec();
  spec.speed = 0.5;
  const double t0 = MonotonicSeconds();
  auto r = RunMapTask(spec, nullptr);
  const double took = MonotonicSeconds() - t0;
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_GT(r->work_seconds, 0);
  EXPECT_DOUBLE_EQ(r->speed_hold_seconds, r->work_seconds);  // (1/0.5 − 1) × work
  EXPECT_EQ(r->straggler_delay_seconds, 0);
  EXPECT_GE(took, 2 * r->work_seconds);
  EXPECT_TRUE(PathExists(shuffle::MapOutputIndexPath(dir_.path(), 5, 2, 1)));
}

// The straggler delay is the pure draw for (job 5, map 2, attempt 1), whatever the speed.
TEST_F(MapHoldTest, StragglerDelayIsTheAttemptsDraw) {
  MapTaskSpec spec = Spec();
  spec.straggler.enabled = true;
  spec.straggler.offset = 0.05;
  spec.straggler.rate = 20;  // tail mean 50 ms
  spec.straggler.seed = 3;
  const double expected = StragglerDelay(spec.straggler, 5, 2, 1);
  const double t0 = MonotonicSeconds();
  auto r = RunMapTask(spec, nullptr);
  const double took = MonotonicSeconds() - t0;
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->speed_hold_seconds, 0);
  EXPECT_DOUBLE_EQ(r->straggler_delay_seconds, expected);
  EXPECT_GE(expected, 0.05);
  EXPECT_GE(took, r->work_seconds + expected);
}

// Killed while holding: the attempt ends Aborted at once and leaves no map output.
TEST_F(MapHoldTest, KilledWhileHoldingRemovesTheOutput) {
  MapTaskSpec spec = Spec();
  spec.straggler.enabled = true;
  spec.straggler.offset = 60;  // a minute: the test would time out if the hold ignored the kill
  spec.straggler.rate = 1;
  std::atomic<bool> cancel{false};
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancel.store(true);
  });
  const double t0 = MonotonicSeconds();
  auto r = RunMapTask(spec, &cancel);
  const double took = MonotonicSeconds() - t0;
  killer.join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kAborted) << r.status().ToString();
  EXPECT_LT(took, 5.0);
  EXPECT_FALSE(PathExists(shuffle::MapOutputDataPath(dir_.path(), 5, 2, 1)));
  EXPECT_FALSE(PathExists(shuffle::MapOutputIndexPath(dir_.path(), 5, 2, 1)));
}

}  // namespace
}  // namespace mr::worker
