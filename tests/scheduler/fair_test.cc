#include "scheduler/policies/fair_scheduler.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace mr::sched {
namespace {

using testing::MakeJob;
using testing::MakeWorker;
using testing::MapsPerJob;

Snapshot SixSlots(std::vector<JobView> jobs) {
  Snapshot snap;
  snap.workers = {MakeWorker(1, 3, 1), MakeWorker(2, 3, 1)};
  snap.jobs = std::move(jobs);
  return snap;
}

FairScheduler WithPools(const char* text) {
  auto pools = PoolTable::Parse(text);
  EXPECT_TRUE(pools.ok()) << pools.status().ToString();
  return FairScheduler("fair", std::move(pools).value());
}

TEST(FairTest, SplitsSixSlotsEquallyAmongThreeJobs) {
  Snapshot snap = SixSlots({MakeJob(1, 10), MakeJob(2, 10), MakeJob(3, 10)});
  Decision d = FairScheduler("fair").Schedule(snap);
  ASSERT_TRUE(testing::CheckContract(snap, d));
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{1, 2}, {2, 2}, {3, 2}}));
}

TEST(FairTest, RedistributesWhatAJobCannotUse) {
  Snapshot snap = SixSlots({MakeJob(1, 1), MakeJob(2, 10), MakeJob(3, 10)});
  auto n = MapsPerJob(FairScheduler("fair").Schedule(snap));
  EXPECT_EQ(n[1], 1);
  EXPECT_EQ(n[2] + n[3], 5);
  EXPECT_GE(n[2], 2);
  EXPECT_GE(n[3], 2);
}

TEST(FairTest, RunningMapsCountTowardTheShare) {
  Snapshot snap = SixSlots({MakeJob(1, 10), MakeJob(2, 10), MakeJob(3, 10)});
  snap.jobs[0].maps_running = 2;
  snap.workers[0].free_map = 1;  // job 1's two maps hold slots there
  auto n = MapsPerJob(FairScheduler("fair").Schedule(snap));
  EXPECT_EQ(n, (std::map<JobId, int>{{2, 2}, {3, 2}}));
}

TEST(FairTest, HonoursPoolMinimumShare) {
  Snapshot snap = SixSlots({MakeJob(1, 10), MakeJob(2, 10), MakeJob(3, 10)});
  snap.jobs[2].params.pool = "prod";
  FairScheduler s = WithPools("pool prod min_maps=4\n");
  EXPECT_EQ(MapsPerJob(s.Schedule(snap)), (std::map<JobId, int>{{1, 1}, {2, 1}, {3, 4}}));
}

TEST(FairTest, HonoursPoolAndJobWeights) {
  Snapshot snap = SixSlots({MakeJob(1, 10), MakeJob(2, 10)});
  snap.jobs[1].params.pool = "big";
  FairScheduler s = WithPools("pool big weight=2\n");
  EXPECT_EQ(MapsPerJob(s.Schedule(snap)), (std::map<JobId, int>{{1, 2}, {2, 4}}));

  Snapshot same_pool = SixSlots({MakeJob(1, 10), MakeJob(2, 10)});
  same_pool.jobs[0].params.weight = 2;
  same_pool.jobs[0].shuffle_bytes_available = 1;
  same_pool.jobs[1].shuffle_bytes_available = 1;
  Decision d = FairScheduler("fair").Schedule(same_pool);
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{1, 4}, {2, 2}}));
  EXPECT_NEAR(d.shuffle_shares[1], 2.0 / 3, 1e-12);
  EXPECT_NEAR(d.shuffle_shares[2], 1.0 / 3, 1e-12);
}

TEST(FairTest, PoolBelowMinReducesGetsTheReduceSlotFirst) {
  Snapshot snap = SixSlots({MakeJob(1, 0), MakeJob(2, 0)});
  snap.workers[1].free_reduce = 0;
  snap.jobs[0].ready_reduces = {{0, 1}};
  snap.jobs[1].ready_reduces = {{0, 1}};
  snap.jobs[1].params.pool = "prod";
  Decision d = WithPools("pool prod min_reduces=1\n").Schedule(snap);
  ASSERT_EQ(d.assignments.size(), 1u);
  EXPECT_EQ(d.assignments[0].job, 2u);
  EXPECT_EQ(d.assignments[0].kind, TaskKind::kReduce);
}

}  // namespace
}  // namespace mr::sched
