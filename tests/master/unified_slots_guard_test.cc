// A policy that needs unified slots (Scheduler::requires_unified_slots, as asrpt) on a
// cluster whose live workers have none: the master runs no round of it and fails its jobs
// with the reason once that has lasted the grace (TrackerOptions::worker_timeout), instead
// of leaving them idle; a unified worker arriving within the grace, or no worker at all,
// leaves them running.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "common/file_util.h"
#include "tracker_harness.h"

namespace mr::master {
namespace {

using testing::TrackerHarness;

constexpr double kGrace = 10;  // TrackerHarness::DefaultOptions().worker_timeout

// Schedules nothing, counts its rounds, and says whether it needs unified slots.
class UnifiedOnlyPolicy final : public sched::Scheduler {
 public:
  UnifiedOnlyPolicy(bool needs_unified, int* rounds) : needs_(needs_unified), rounds_(rounds) {}
  std::string_view name() const override { return "unified-only"; }
  sched::SnapshotScope scope() const override { return sched::SnapshotScope::kCluster; }
  bool requires_unified_slots() const override { return needs_; }
  sched::Decision Schedule(const sched::Snapshot&) override {
    ++*rounds_;
    return {};
  }

 private:
  bool needs_;
  int* rounds_;
};

std::unique_ptr<sched::Scheduler> Policy(int* rounds, bool needs_unified = true) {
  return std::make_unique<UnifiedOnlyPolicy>(needs_unified, rounds);
}

// Advances the clock by `seconds` in 1 s steps, every worker beating, the master ticking.
void Pass(TrackerHarness& h, std::initializer_list<uint32_t> workers, double seconds) {
  for (double t = 0; t < seconds; t += 1) {
    h.clock().Advance(1);
    for (uint32_t w : workers) h.Beat(w);
    h.tracker().Tick();
  }
}

TEST(UnifiedSlotsGuardTest, FailsTheJobsWithTheReasonWhenNoLiveWorkerHasAUnifiedSlot) {
  TempDir dir("mr-unified-guard-test");
  int rounds = 0;
  TrackerHarness h(dir.path(), Policy(&rounds));
  uint32_t a = h.AddWorker(2, 1);
  uint32_t b = h.AddWorker(1, 1);
  uint64_t job = h.Submit(h.SyntheticSpec(2, 1));
  Pass(h, {a, b}, kGrace - 2);
  EXPECT_EQ(h.Status(job).state(), "RUNNING") << "within the grace a unified worker may still come";
  EXPECT_EQ(rounds, 0) << "the policy is not run on workers it cannot use";
  EXPECT_TRUE(h.worker(a).maps.empty());
  Pass(h, {a, b}, 3);
  proto::JobStatus st = h.Status(job);
  EXPECT_EQ(st.state(), "FAILED");
  EXPECT_EQ(st.error(),
            "policy unified-only needs workers with unified slots (mr worker --unified-slots N); "
            "none of the 2 live workers has one");
  // A job submitted later fails at once: the grace is long over.
  uint64_t late = h.Submit(h.SyntheticSpec(1, 1));
  EXPECT_EQ(h.Status(late).state(), "FAILED");
}

TEST(UnifiedSlotsGuardTest, AUnifiedWorkerWithinTheGraceKeepsTheJobsRunning) {
  TempDir dir("mr-unified-guard-test");
  int rounds = 0;
  TrackerHarness h(dir.path(), Policy(&rounds));
  uint32_t a = h.AddWorker(2, 1);
  uint64_t job = h.Submit(h.SyntheticSpec(2, 1));
  Pass(h, {a}, kGrace / 2);
  uint32_t u = h.AddWorker(0, 0, /*unified_slots=*/2);
  Pass(h, {a, u}, 3 * kGrace);
  EXPECT_EQ(h.Status(job).state(), "RUNNING");
  EXPECT_GT(rounds, 0) << "with a unified slot the policy runs again";
}

TEST(UnifiedSlotsGuardTest, TheGraceStartsAgainWhenTheLastUnifiedWorkerIsLost) {
  TempDir dir("mr-unified-guard-test");
  int rounds = 0;
  TrackerHarness h(dir.path(), Policy(&rounds));
  uint32_t a = h.AddWorker(2, 1);
  h.AddWorker(0, 0, /*unified_slots=*/1);  // never beats again: lost after worker_timeout
  uint64_t job = h.Submit(h.SyntheticSpec(2, 1));
  Pass(h, {a}, kGrace + 2);
  ASSERT_EQ(h.tracker().worker_count(), 1u) << "the unified worker is lost";
  EXPECT_EQ(h.Status(job).state(), "RUNNING") << "the grace counts from the loss";
  Pass(h, {a}, kGrace + 1);
  proto::JobStatus st = h.Status(job);
  EXPECT_EQ(st.state(), "FAILED");
  EXPECT_NE(st.error().find("none of the 1 live worker has one"), std::string::npos) << st.error();
}

TEST(UnifiedSlotsGuardTest, WithNoWorkerAtAllJobsWaitAsUnderEveryPolicy) {
  TempDir dir("mr-unified-guard-test");
  int rounds = 0;
  TrackerHarness h(dir.path(), Policy(&rounds));
  uint64_t job = h.Submit(h.SyntheticSpec(2, 1));
  Pass(h, {}, 3 * kGrace);
  EXPECT_EQ(h.Status(job).state(), "RUNNING");
}

TEST(UnifiedSlotsGuardTest, APolicyThatDoesNotNeedUnifiedSlotsIsLeftAlone) {
  TempDir dir("mr-unified-guard-test");
  int rounds = 0;
  TrackerHarness h(dir.path(), Policy(&rounds, /*needs_unified=*/false));
  uint32_t a = h.AddWorker(2, 1);
  uint64_t job = h.Submit(h.SyntheticSpec(2, 1));
  Pass(h, {a}, 3 * kGrace);
  EXPECT_EQ(h.Status(job).state(), "RUNNING");
  EXPECT_GT(rounds, 0);
}

}  // namespace
}  // namespace mr::master
