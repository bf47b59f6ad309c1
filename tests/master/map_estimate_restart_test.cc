// A running job's map estimate across a master restart (docs/policies.md, "Size estimates";
// docs/reliability.md): the maps it finished before the restart await re-adoption (not done
// until a worker offers their outputs again), but their stored completions are measurements,
// so the restarted master sizes the job from them at once rather than knowing nothing until
// a worker registers (which made flex count 1 s per task in its first plan).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "common/file_util.h"
#include "tracker_harness.h"

namespace mr::master {
namespace {

using testing::Fifo;
using testing::TrackerHarness;

TEST(MapEstimateRestartTest, MapsAwaitingReadoptionSizeTheJob) {
  TempDir dir("mr-map-estimate-restart-test");
  const std::string db = JoinPath(dir.path(), "db");
  uint64_t job = 0;
  {
    auto store = StateStore::Open(db);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    TrackerHarness h(dir.path(), Fifo(), std::move(store).value());
    uint32_t w = h.AddWorker(2, 1);
    job = h.Submit(h.SyntheticSpec(/*maps=*/6, /*reduces=*/1));
    EXPECT_EQ(h.Status(job).estimate_source(), "none") << "no hint, no profile, nothing done";
    h.Beat(w);
    h.FinishMaps(w);  // two maps of 1 s each
    ASSERT_EQ(h.Status(job).maps_done(), 2u);
    EXPECT_EQ(h.Status(job).estimate_source(), "online");
    EXPECT_DOUBLE_EQ(h.Status(job).est_map_seconds(), 6);
  }
  auto store = StateStore::Open(db);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  TrackerHarness h(dir.path(), Fifo(), std::move(store).value());
  ASSERT_TRUE(h.tracker().Recover().ok());
  const proto::JobStatus st = h.Status(job);
  EXPECT_EQ(st.state(), "RUNNING");
  EXPECT_EQ(st.maps_done(), 0u) << "the two maps await re-adoption";
  EXPECT_EQ(st.estimate_source(), "online") << "sized from the stored completions";
  EXPECT_DOUBLE_EQ(st.est_map_seconds(), 6) << "two measured maps of 1 s, six maps";
}

}  // namespace
}  // namespace mr::master
