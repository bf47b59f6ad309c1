// The hung-task watchdog's clock arithmetic, on explicit times (no sleeping).
#include "worker/attempt_watch.h"

#include <gtest/gtest.h>

namespace mr::worker {
namespace {

TEST(AttemptWatchTest, KillsOnlyAfterTheTimeoutWithoutATick) {
  AttemptWatch w;
  EXPECT_FALSE(w.CheckHung(100, 10));  // first look: the clock starts
  EXPECT_FALSE(w.CheckHung(109, 10));
  w.progress()->fetch_add(1);
  EXPECT_FALSE(w.CheckHung(115, 10));  // a tick restarts the clock at 115
  EXPECT_FALSE(w.CheckHung(124.9, 10));
  EXPECT_FALSE(w.cancel()->load());
  EXPECT_TRUE(w.CheckHung(125, 10));
  EXPECT_TRUE(w.timed_out());
  EXPECT_TRUE(w.cancel()->load());
  EXPECT_FALSE(w.CheckHung(200, 10)) << "reported once";
}

TEST(AttemptWatchTest, ZeroTimeoutNeverKills) {
  AttemptWatch w;
  EXPECT_FALSE(w.CheckHung(0, 0));
  EXPECT_FALSE(w.CheckHung(1e9, 0));
  EXPECT_FALSE(w.timed_out());
  w.Cancel();  // a shutdown cancels without a timeout
  EXPECT_TRUE(w.cancel()->load());
  EXPECT_FALSE(w.timed_out());
}

}  // namespace
}  // namespace mr::worker
