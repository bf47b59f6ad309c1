// lrpt: largest remaining (map + reduce) work first, the baseline of "Minimizing total
// flow time of MapReduce jobs", on a hand-worked instance in the paper's units
// (tests/scheduler/unit_slots.h) and on mixed slots.
#include <gtest/gtest.h>

#include <map>

#include "scheduler/scheduler.h"
#include "test_util.h"
#include "unit_slots.h"

namespace mr::sched {
namespace {

using testing::MakeJob;
using testing::MakeWorker;

std::unique_ptr<Scheduler> Lrpt() {
  auto s = CreateScheduler("lrpt");
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::move(*s);
}

// Preemptive, N = 2, the instance of asrpt_test.cc: A (slot 0: 2 maps, 2 reduce units),
// B (slot 0: 1 map, 4 units), C (slot 1: 1 map, 1 unit). Remaining work in brackets.
// slot 0: B(5), A(4): B its 1 map, A 1 map.
// slot 1: B(4 reduce), A(3), C(2): B takes both slots for reduce units.
// slot 2: A(3), B(2) = C(2), B arrived first: A its last map, B 1 unit.
// slot 3: A(2) = C(2), A arrived first, B(1): A its 2 reduce units. A done (flow 4).
// slot 4: C(2), B(1): C its map, B its last unit. B done (flow 5).
// slot 5: C its unit. C done (flow 5).   Total 14 (ASRPT: 11).
TEST(LrptTest, HandWorkedPreemptiveInstance) {
  auto s = Lrpt();
  auto run = testing::RunUnitSlots(*s, {{0, 2, {1, 1}}, {0, 1, {2, 2}}, {1, 1, {1}}}, 2, true);
  ASSERT_EQ(run.slots.size(), 6u);
  using M = std::map<JobId, int>;
  EXPECT_EQ(run.slots[0].maps, (M{{1, 1}, {2, 1}}));
  EXPECT_EQ(run.slots[1].reduces, (M{{2, 2}}));
  EXPECT_EQ(run.slots[1].maps, M{});
  EXPECT_EQ(run.slots[2].maps, (M{{1, 1}}));
  EXPECT_EQ(run.slots[2].reduces, (M{{2, 1}}));
  EXPECT_EQ(run.slots[3].reduces, (M{{1, 2}}));
  EXPECT_EQ(run.slots[4].maps, (M{{3, 1}}));
  EXPECT_EQ(run.slots[4].reduces, (M{{2, 1}}));
  EXPECT_EQ(run.slots[5].reduces, (M{{3, 1}}));
  EXPECT_EQ(run.flow, (M{{1, 4}, {2, 5}, {3, 5}}));
  EXPECT_EQ(run.total_flow, 14);
}

// Mixed worker: the largest job takes the dedicated map slot before a unified one, a
// ready reduce of a job with maps left waits, and a job of unknown size comes last.
TEST(LrptTest, MixedSlotsLargestFirstReducesWaitForMaps) {
  auto s = Lrpt();
  Snapshot snap;
  snap.workers = {MakeWorker(1, 1, 1, 2)};
  JobView small = MakeJob(1, 3), big = MakeJob(2, 2), unknown = MakeJob(3, 5);
  small.estimate.source = big.estimate.source = EstimateSource::kHint;
  small.estimate.map_seconds_remaining = 3;
  big.estimate.map_seconds_remaining = 10;
  big.ready_reduces.push_back({0, 1});  // slow start: maps are not done
  snap.jobs = {small, big, unknown};
  Decision d = s->Schedule(snap);
  ASSERT_TRUE(testing::CheckContract(snap, d));
  EXPECT_EQ(testing::MapsPerJob(d), (std::map<JobId, int>{{1, 1}, {2, 2}}));
  for (const Assignment& a : d.assignments) EXPECT_EQ(a.kind, TaskKind::kMap);
  EXPECT_EQ(d.assignments[0].job, 2u);
  EXPECT_EQ(d.assignments[0].slot, SlotKind::kMap);
}

}  // namespace
}  // namespace mr::sched
