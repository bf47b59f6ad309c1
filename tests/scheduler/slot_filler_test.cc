#include "scheduler/util/slot_filler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <tuple>
#include <vector>

#include "test_util.h"

namespace mr::sched {
namespace {

using testing::MakeJob;
using testing::MakeWorker;

// FillTowardTargets as it was before issue 6's second round: every candidate in
// one heap of std::tuple keys. The reference the faster version must match.
void ReferenceFill(SlotFiller& filler, std::span<const SlotTarget> targets) {
  using Key = std::tuple<int, double, uint64_t, size_t>;
  auto key_for = [&](const SlotTarget& t, size_t pos) -> Key {
    double running = filler.running_maps(t.job);
    if (running < t.min_share) return {0, running / t.min_share, t.last_served, pos};
    return {1, running - t.target, t.last_served, pos};
  };
  std::vector<Key> heap;
  for (size_t i = 0; i < targets.size(); ++i) {
    if (filler.pending_maps(targets[i].job) > 0) heap.push_back(key_for(targets[i], i));
  }
  const std::greater<Key> later;
  std::make_heap(heap.begin(), heap.end(), later);
  while (!heap.empty() && filler.free_map_slots() > 0) {
    std::pop_heap(heap.begin(), heap.end(), later);
    size_t pos = std::get<3>(heap.back());
    heap.pop_back();
    const SlotTarget& t = targets[pos];
    if (filler.AssignMaps(t.job, 1) == 1 && filler.pending_maps(t.job) > 0) {
      heap.push_back(key_for(t, pos));
      std::push_heap(heap.begin(), heap.end(), later);
    }
  }
}

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
// Issue 6: with few slots only the best candidates enter the heap. Random
// targets, many ties, jobs listed twice and NaN targets (the two cases that
// must fall back to the full heap) must give exactly the reference's
// assignments, in order.
TEST(SlotFillerTest, FillTowardTargetsMatchesTheFullHeapReference) {
  std::mt19937 rng(6);
  auto num = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int round = 0; round < 400; ++round) {
    Snapshot snap;
    for (int w = 0, n = num(1, 4); w < n; ++w) snap.workers.push_back(MakeWorker(w + 1, num(0, 3)));
    const int jobs = num(1, 120);
    for (int j = 0; j < jobs; ++j) {
      snap.jobs.push_back(MakeJob(j + 1, num(0, 4)));
      snap.jobs.back().maps_running = num(0, 2);
    }
    std::vector<SlotTarget> targets;
    for (int i = 0, n = num(0, 150); i < n; ++i) {
      SlotTarget t;
      t.job = num(0, 9) == 0 && !targets.empty() ? targets[num(0, static_cast<int>(targets.size()) - 1)].job
                                                  : num(0, jobs - 1);
      t.target = num(0, 3) == 0 ? 0.5 : num(0, 8) * 0.25;
      if (round % 5 == 4 && num(0, 2) == 0) t.target = std::nan("");
      t.min_share = num(0, 4) == 0 ? num(1, 3) : 0;
      t.last_served = num(0, 2) == 0 ? 0 : static_cast<uint64_t>(num(1, 50));
      targets.push_back(t);
    }
    Decision want, got;
    SlotFiller ref(snap, &want);
    ReferenceFill(ref, targets);
    SlotFiller fast(snap, &got);
    FillScratch scratch;
    FillTowardTargets(fast, targets, &scratch);
    ASSERT_EQ(got.assignments.size(), want.assignments.size()) << "round " << round;
    for (size_t i = 0; i < want.assignments.size(); ++i) {
      ASSERT_EQ(got.assignments[i].job, want.assignments[i].job) << "round " << round << " #" << i;
      ASSERT_EQ(got.assignments[i].worker, want.assignments[i].worker) << "round " << round << " #" << i;
    }
  }
}

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
