// fifo and fair on unified slots only, the baselines "Minimizing total flow time of
// MapReduce jobs" compares ASRPT with (docs/policies.md, "fifo and fair on unified slots").
// Both place ready reduces before maps (SlotFiller's rule), so on one pool of unified
// slots a job's ready reduces come before any map. For fifo in the paper's model that is
// the paper's FIFO; fair is not the paper's Fair (equal machines per job): it shares only
// the slots left after the reduces.
#include <gtest/gtest.h>

#include <map>

#include "scheduler/scheduler.h"
#include "test_util.h"
#include "unit_slots.h"

namespace mr::sched {
namespace {

using M = std::map<JobId, int>;

std::unique_ptr<Scheduler> Make(const char* name) {
  auto s = CreateScheduler(name);
  EXPECT_TRUE(s.ok());
  return std::move(*s);
}

// Preemptive, N = 2: A (slot 0: 3 maps, 1 reduce unit), B (slot 0: 1 map, 2 units).
// The paper's FIFO: slot 0 A 2 maps; slot 1 A's last map, B's map; slot 2 A's reduce,
// B 1 unit; slot 3 B's last unit. Flow: A 3, B 4.
TEST(UnifiedBaselinesTest, FifoIsThePapersFifoInItsModel) {
  auto s = Make("fifo");
  auto run = testing::RunUnitSlots(*s, {{0, 3, {1}}, {0, 1, {1, 1}}}, 2, true);
  ASSERT_EQ(run.slots.size(), 4u);
  EXPECT_EQ(run.slots[0].maps, (M{{1, 2}}));
  EXPECT_EQ(run.slots[1].maps, (M{{1, 1}, {2, 1}}));
  EXPECT_EQ(run.slots[2].reduces, (M{{1, 1}, {2, 1}}));
  EXPECT_EQ(run.slots[3].reduces, (M{{2, 1}}));
  EXPECT_EQ(run.flow, (M{{1, 3}, {2, 4}}));
}

// Two unified slots, A with two ready reduces, B with two pending maps. The paper's Fair
// gives each job one machine; fair places both reduces first and B gets nothing.
TEST(UnifiedBaselinesTest, FairGivesReadyReducesPriorityOverEqualShares) {
  auto s = Make("fair");
  Snapshot snap;
  snap.workers = {testing::MakeWorker(1, 0, 0, 2)};
  JobView a = testing::MakeJob(1, 0), b = testing::MakeJob(2, 2);
  a.maps_total = a.maps_done = 1;
  a.reduces_total = 2;
  a.ready_reduces = {{0, 1}, {1, 1}};
  snap.jobs = {a, b};
  Decision d = s->Schedule(snap);
  ASSERT_TRUE(testing::CheckContract(snap, d));
  ASSERT_EQ(d.assignments.size(), 2u);
  for (const Assignment& x : d.assignments) EXPECT_EQ(x.kind, TaskKind::kReduce);
}

}  // namespace
}  // namespace mr::sched
