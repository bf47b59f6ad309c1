#include "scheduler/policies/klps_scheduler.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace mr::sched {
namespace {

using testing::MakeJob;
using testing::MakeWorker;
using testing::MapsPerJob;

TEST(KlpsTest, SharesMapSlotsAmongFirstKJobsOnly) {
  Snapshot snap;
  snap.workers = {MakeWorker(1, 3), MakeWorker(2, 3)};
  snap.jobs = {MakeJob(1, 10), MakeJob(2, 10), MakeJob(3, 10)};
  Decision d = KlpsScheduler("klps", 2).Schedule(snap);
  ASSERT_TRUE(testing::CheckContract(snap, d));
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{1, 3}, {2, 3}}));
}

TEST(KlpsTest, LaterJobsWaitEvenIfSlotsIdle) {
  Snapshot snap;
  snap.workers = {MakeWorker(1, 6)};
  snap.jobs = {MakeJob(1, 1), MakeJob(2, 2), MakeJob(3, 10)};
  EXPECT_EQ(MapsPerJob(KlpsScheduler("klps", 2).Schedule(snap)), (std::map<JobId, int>{{1, 1}, {2, 2}}));
}

TEST(KlpsTest, JobsDoneWithMapsLeaveTheMapStation) {
  Snapshot snap;
  snap.workers = {MakeWorker(1, 4)};
  snap.jobs = {MakeJob(1, 0), MakeJob(2, 10), MakeJob(3, 10)};
  snap.jobs[0].maps_done = 5;
  snap.jobs[0].shuffle_bytes_available = 10;
  snap.jobs[2].shuffle_bytes_available = 10;
  Decision d = KlpsScheduler("klps", 2).Schedule(snap);
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{2, 2}, {3, 2}}));
  EXPECT_EQ(d.shuffle_shares, (ShareMap{{1, 0.5}, {3, 0.5}}));
}

}  // namespace
}  // namespace mr::sched
