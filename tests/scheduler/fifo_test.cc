#include "scheduler/policies/fifo_scheduler.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace mr::sched {
namespace {

using testing::MakeJob;
using testing::MakeWorker;
using testing::MapsPerJob;

TEST(FifoTest, FirstJobTakesAllSlotsItCanUseThenTheNext) {
  Snapshot snap;
  snap.workers = {MakeWorker(1, 3, 1), MakeWorker(2, 3)};
  snap.jobs = {MakeJob(1, 4), MakeJob(2, 5), MakeJob(3, 1)};
  snap.jobs[1].shuffle_bytes_available = 100;
  snap.jobs[2].shuffle_bytes_available = 100;
  snap.jobs[0].ready_reduces = {{0, 1}};
  snap.jobs[1].ready_reduces = {{0, 1}};
  FifoScheduler s("fifo");
  Decision d = s.Schedule(snap);
  ASSERT_TRUE(testing::CheckContract(snap, d));
  auto n = MapsPerJob(d);
  EXPECT_EQ(n[1], 4);
  EXPECT_EQ(n[2], 2);
  EXPECT_EQ(n[3], 0);
  // The single reduce slot goes to the earlier job.
  int reduces = 0;
  for (const Assignment& a : d.assignments) {
    if (a.kind == TaskKind::kReduce) {
      ++reduces;
      EXPECT_EQ(a.job, 1u);
    }
  }
  EXPECT_EQ(reduces, 1);
  // Job 1 has no shuffle data: the earliest job with data gets the share.
  EXPECT_EQ(d.shuffle_shares, (ShareMap{{2, 1.0}}));
  EXPECT_NE(d.note.find("job 1"), std::string::npos);
}

TEST(FifoTest, UsesSubmitTimeWhenSnapshotIsOutOfOrder) {
  Snapshot snap;
  snap.workers = {MakeWorker(1, 2)};
  snap.jobs = {MakeJob(5, 3, 10.0), MakeJob(6, 3, 1.0)};
  Decision d = FifoScheduler("fifo").Schedule(snap);
  EXPECT_EQ(MapsPerJob(d), (std::map<JobId, int>{{6, 2}}));
}

}  // namespace
}  // namespace mr::sched
