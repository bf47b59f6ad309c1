// `mr master --max-heartbeat-rate`: the interval the master tells its workers grows with
// their number so the idle heartbeats of the whole cluster stay under the rate, and never
// falls below --heartbeat-ms. Driven through the RequestHandler on a manual clock.
#include <memory>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "master/request_handler.h"
#include "scheduler/scheduler.h"
#include "tests/master/tracker_harness.h"

namespace mr::master {
namespace {

TEST(HeartbeatRateTest, IntervalKeepsTheClusterUnderTheRate) {
  TempDir dir("mr-heartbeat-rate");
  auto policy = sched::CreateScheduler("fifo");
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  testing::TrackerHarness h(dir.path(), std::move(*policy));
  for (int i = 0; i < 5; ++i) h.AddWorker(1, 1);
  // 5 workers at 20 ms would beat 250 times a second: a cap of 100 stretches each one's
  // interval to 5 / 100 s = 50 ms; the default cap (500) leaves the 20 ms floor.
  RequestHandler capped(&h.tracker(), RequestHandlerOptions{20, 100, {}});
  EXPECT_EQ(capped.HeartbeatMs(), 50u);
  RequestHandler roomy(&h.tracker(), RequestHandlerOptions{20, 500, {}});
  EXPECT_EQ(roomy.HeartbeatMs(), 20u);
  // At most one heartbeat a second for the cluster: 5 s each, but a worker timeout of 10 s
  // stops it at a third of that (IntervalStaysWellUnderTheWorkerTimeout).
  RequestHandler one(&h.tracker(), RequestHandlerOptions{20, 1, {}});
  EXPECT_EQ(one.HeartbeatMs(), 3333u);
}

// A large cluster under the rate cap would stretch the interval past the time after which
// the master declares a silent worker lost (issue 29: 5,000 workers at the default 500/s
// is 10 s, the default --worker-timeout): every late heartbeat would lose a worker. The
// interval stops at a third of the worker timeout, so a worker is lost only after missing
// about three heartbeats; the rate cap then gives way.
TEST(HeartbeatRateTest, IntervalStaysWellUnderTheWorkerTimeout) {
  TempDir dir("mr-heartbeat-timeout");
  auto policy = sched::CreateScheduler("fifo");
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  TrackerOptions options = testing::TrackerHarness::DefaultOptions();
  options.worker_timeout = 10;
  testing::TrackerHarness h(dir.path(), std::move(*policy), nullptr, options);
  for (int i = 0; i < 50; ++i) h.AddWorker(1, 1);
  // 50 workers at 10 heartbeats a second would be 5 s each; a third of 10 s is the most.
  RequestHandler slow(&h.tracker(), RequestHandlerOptions{20, 10, {}});
  EXPECT_EQ(slow.HeartbeatMs(), 3333u);
  // Below the cap the rate still rules: 50 workers at 100/s, 500 ms.
  RequestHandler capped(&h.tracker(), RequestHandlerOptions{20, 100, {}});
  EXPECT_EQ(capped.HeartbeatMs(), 500u);
  // --heartbeat-ms is the floor even above the cap (the user asked for it).
  RequestHandler floor(&h.tracker(), RequestHandlerOptions{5000, 100, {}});
  EXPECT_EQ(floor.HeartbeatMs(), 5000u);
}

}  // namespace
}  // namespace mr::master
