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
  // At most one heartbeat a second for the cluster: 5 s each.
  RequestHandler one(&h.tracker(), RequestHandlerOptions{20, 1, {}});
  EXPECT_EQ(one.HeartbeatMs(), 5000u);
}

}  // namespace
}  // namespace mr::master
