#include "scheduler/slot_filler.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace mr::sched {
namespace {

using testing::MakeJob;
using testing::MakeWorker;

TEST(SlotFillerTest, SpreadsAJobsMapsOverWorkersFastestFirst) {
  Snapshot snap;
  snap.workers = {MakeWorker(1, 2), MakeWorker(2, 2, 0, 0, 3.0), MakeWorker(3, 2)};
  snap.jobs = {MakeJob(7, 4)};
  Decision d;
  SlotFiller f(snap, &d);
  EXPECT_EQ(f.free_map_slots(), 6);
  EXPECT_EQ(f.AssignMaps(0, 3), 3);
  ASSERT_EQ(d.assignments.size(), 3u);
  EXPECT_EQ(d.assignments[0].worker, 2u);  // fastest first
  EXPECT_EQ(d.assignments[1].worker, 1u);
  EXPECT_EQ(d.assignments[2].worker, 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(d.assignments[i].index, i);
  EXPECT_EQ(f.pending_maps(0), 1);
  EXPECT_EQ(f.running_maps(0), 3);
  EXPECT_EQ(f.AssignMaps(0, 5), 1);  // only one pending left
  EXPECT_EQ(f.free_map_slots(), 2);
}

TEST(SlotFillerTest, MapsUseMapSlotsBeforeUnifiedAndStopWhenFull) {
  Snapshot snap;
  snap.workers = {MakeWorker(1, 1, 0, 1)};
  snap.jobs = {MakeJob(1, 5)};
  Decision d;
  SlotFiller f(snap, &d);
  EXPECT_EQ(f.AssignMaps(0, 5), 2);
  ASSERT_EQ(d.assignments.size(), 2u);
  EXPECT_EQ(d.assignments[0].slot, SlotKind::kMap);
  EXPECT_EQ(d.assignments[1].slot, SlotKind::kUnified);
  EXPECT_EQ(f.AssignMaps(0, 1), 0);
}

TEST(SlotFillerTest, ReducesGoOnlyToTheirOwnWorkerReduceSlotThenUnified) {
  Snapshot snap;
  snap.workers = {MakeWorker(1, 2, 1, 1), MakeWorker(2, 2, 0, 0)};
  JobView j = MakeJob(1, 0);
  j.ready_reduces = {{0, 1}, {1, 1}, {2, 1}, {3, 2}, {4, 99}};
  snap.jobs = {j};
  Decision d;
  SlotFiller f(snap, &d);
  std::vector<int> order = {0};
  f.PlaceReduces(order);
  ASSERT_EQ(d.assignments.size(), 2u);
  EXPECT_EQ(d.assignments[0].index, 0);
  EXPECT_EQ(d.assignments[0].slot, SlotKind::kReduce);
  EXPECT_EQ(d.assignments[1].index, 1);
  EXPECT_EQ(d.assignments[1].slot, SlotKind::kUnified);
  for (const Assignment& a : d.assignments) EXPECT_EQ(a.worker, 1u);
  EXPECT_EQ(f.free_map_slots(), 4);  // the unified slot went to the reduce
}

TEST(SlotFillerTest, FillTowardTargetsServesMinimumsThenDeficits) {
  Snapshot snap;
  snap.workers = {MakeWorker(1, 3)};
  snap.jobs = {MakeJob(1, 5), MakeJob(2, 5), MakeJob(3, 5)};
  snap.jobs[0].maps_running = 1;
  Decision d;
  SlotFiller f(snap, &d);
  // Job 3 is below its minimum and goes first; then job 2 (deficit 2) twice,
  // while job 1 already runs its target.
  std::vector<SlotTarget> t = {{0, 1, 0}, {1, 2, 0}, {2, 1, 1}};
  FillTowardTargets(f, t);
  auto n = testing::MapsPerJob(d);
  EXPECT_EQ(n[1], 0);
  EXPECT_EQ(n[2], 2);
  EXPECT_EQ(n[3], 1);
  EXPECT_EQ(d.assignments[0].job, 3u);
}

// Issue 6: worker ids are looked up in a dense table, or by binary search when
// they are sparse; both must place the same reduces, and placing an order in
// pieces must equal placing it at once (the policies feed it block by block).
TEST(SlotFillerTest, DenseAndSparseWorkerIdsAndPiecewisePlacementAgree) {
  for (WorkerId stride : {1u, 1000003u}) {
    Snapshot snap;
    for (WorkerId w = 0; w < 5; ++w) snap.workers.push_back(MakeWorker(1 + w * stride, 1, 1, w % 2));
    for (int j = 0; j < 6; ++j) {
      JobView job = MakeJob(static_cast<JobId>(j + 1), 0);
      for (int r = 0; r < 3; ++r) job.ready_reduces.push_back({r, 1 + WorkerId((j + r) % 6) * stride});
      snap.jobs.push_back(job);
    }
    Decision at_once, in_pieces;
    SlotFiller a(snap, &at_once);
    std::vector<int> order = {5, 4, 3, 2, 1, 0};
    a.PlaceReduces(order);
    SlotFillerBuffers buffers;
    SlotFiller b(snap, &in_pieces, &buffers);
    EXPECT_TRUE(b.CanPlaceReduce(5));
    b.PlaceReduces(std::span<const int>(order).first(2));
    b.PlaceReduces(std::span<const int>(order).subspan(2));
    ASSERT_EQ(at_once.assignments.size(), 7u) << "stride " << stride;  // 5 reduce + 2 unified
    ASSERT_EQ(in_pieces.assignments.size(), at_once.assignments.size());
    for (size_t i = 0; i < at_once.assignments.size(); ++i) {
      EXPECT_EQ(in_pieces.assignments[i].job, at_once.assignments[i].job);
      EXPECT_EQ(in_pieces.assignments[i].worker, at_once.assignments[i].worker);
      EXPECT_EQ(in_pieces.assignments[i].slot, at_once.assignments[i].slot);
    }
    EXPECT_EQ(a.free_reduce_slots(), 0);
    EXPECT_FALSE(a.CanPlaceReduce(0));  // every reduce-capable slot is taken
    EXPECT_TRUE(testing::CheckContract(snap, at_once));
  }
}

}  // namespace
}  // namespace mr::sched
