// The master's reduce-work estimate (docs/policies.md, "Size estimates") end to end on a
// manual clock: the --hint-reduce-seconds hint in status, the online estimate once reduces
// commit (kept in a finished job's stored totals), and the job-name profile that remembers
// reduce seconds per task, read back by the next run of the name, including from a profile
// stored before reduce estimates existed.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "common/file_util.h"
#include "tracker_harness.h"

namespace mr::master {
namespace {

using testing::Fifo;
using testing::TrackerHarness;

// Runs job to its end on worker w (the harness's tasks take 1 s each).
void RunToEnd(TrackerHarness& h, uint32_t w, uint64_t job) {
  for (int i = 0; i < 8 && h.Status(job).maps_done() < h.Status(job).maps_total(); ++i) {
    h.Beat(w);
    h.FinishMaps(w);
  }
  h.RunReduces(w);
  ASSERT_EQ(h.Status(job).state(), "SUCCEEDED") << h.Status(job).error();
}

TEST(ReduceEstimateTest, HintInStatusThenOnlineFromTheCommittedReduces) {
  TempDir dir("mr-reduce-estimate-test");
  TrackerHarness h(dir.path(), Fifo());
  uint32_t w = h.AddWorker(2, 2);
  proto::JobSpec spec = h.SyntheticSpec(/*maps=*/2, /*reduces=*/2);
  spec.set_hint_reduce_seconds(12);
  uint64_t job = h.Submit(spec);
  proto::JobStatus st = h.Status(job);
  EXPECT_EQ(st.reduce_estimate_source(), "hint");
  EXPECT_DOUBLE_EQ(st.est_reduce_seconds(), 12);
  EXPECT_EQ(st.estimate_source(), "none") << "no map hint: the map estimate is its own";

  RunToEnd(h, w, job);
  st = h.Status(job);
  EXPECT_EQ(st.reduce_estimate_source(), "online");
  EXPECT_DOUBLE_EQ(st.est_reduce_seconds(), 2) << "two reduces of 1 s measured";
}

TEST(ReduceEstimateTest, AFinishedJobsReduceEstimateSurvivesARestart) {
  TempDir dir("mr-reduce-estimate-test");
  const std::string db = JoinPath(dir.path(), "db");
  uint64_t job = 0;
  {
    auto store = StateStore::Open(db);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    TrackerHarness h(dir.path(), Fifo(), std::move(store).value());
    uint32_t w = h.AddWorker(2, 2);
    proto::JobSpec spec = h.SyntheticSpec(2, 2);
    spec.set_hint_reduce_seconds(12);
    job = h.Submit(spec);
    RunToEnd(h, w, job);
  }
  auto store = StateStore::Open(db);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  TrackerHarness h(dir.path(), Fifo(), std::move(store).value());
  ASSERT_TRUE(h.tracker().Recover().ok());
  proto::JobStatus st = h.Status(job);
  EXPECT_EQ(st.state(), "SUCCEEDED");
  EXPECT_EQ(st.reduce_estimate_source(), "online");
  EXPECT_DOUBLE_EQ(st.est_reduce_seconds(), 2);
}

TEST(ReduceEstimateTest, NoReduceEstimateWithoutHintOrProfile) {
  TempDir dir("mr-reduce-estimate-test");
  TrackerHarness h(dir.path(), Fifo());
  h.AddWorker(1, 1);
  uint64_t job = h.Submit(h.SyntheticSpec(2, 1));
  EXPECT_EQ(h.Status(job).reduce_estimate_source(), "none");
  EXPECT_EQ(h.Status(job).est_reduce_seconds(), 0);
}

TEST(ReduceEstimateTest, AProfileFromBeforeReduceEstimatesGainsItsFirstReduceRun) {
  TempDir dir("mr-reduce-estimate-test");
  const std::string db = JoinPath(dir.path(), "db");
  {
    // What an older master stored: three runs, map seconds only.
    auto store = StateStore::Open(db);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    proto::JobProfile old;
    old.set_runs(3);
    old.set_map_seconds_per_task(5);
    ASSERT_TRUE((*store)->PutProfile("synthetic", old).ok());
    TrackerHarness h(dir.path(), Fifo(), std::move(store).value());
    uint32_t w = h.AddWorker(2, 2);
    proto::JobSpec spec = h.SyntheticSpec(2, 2);
    spec.set_name("synthetic");
    uint64_t job = h.Submit(spec);
    proto::JobStatus st = h.Status(job);
    EXPECT_EQ(st.estimate_source(), "profile");
    EXPECT_EQ(st.reduce_estimate_source(), "none") << "the old profile knows no reduce time";
    RunToEnd(h, w, job);
  }
  {
    auto store = StateStore::Open(db);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    auto p = (*store)->GetProfile("synthetic");
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    EXPECT_EQ(p->runs(), 4u);
    EXPECT_EQ(p->reduce_runs(), 1u);
    EXPECT_DOUBLE_EQ(p->reduce_seconds_per_task(), 1) << "its own mean, not mixed with a zero of 3 runs";
    // The next run of the name starts from the profile's reduce seconds per task.
    TrackerHarness h(dir.path(), Fifo(), std::move(store).value());
    h.AddWorker(1, 1);
    proto::JobSpec spec = h.SyntheticSpec(2, 3);
    spec.set_name("synthetic");
    spec.set_output(JoinPath(dir.path(), "second-run"));  // this harness numbers outputs from 1 again
    uint64_t job = h.Submit(spec);
    proto::JobStatus st = h.Status(job);
    EXPECT_EQ(st.reduce_estimate_source(), "profile");
    EXPECT_DOUBLE_EQ(st.est_reduce_seconds(), 3);
  }
}

}  // namespace
}  // namespace mr::master
