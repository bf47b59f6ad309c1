#include "shuffle/net/token_bucket.h"

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "common/clock.h"

namespace mr::shuffle {
namespace {

TEST(TokenBucketTest, PacesExactlyAtRateOnVirtualTime) {
  ManualClock clock(100.0);
  TokenBucket bucket(1000.0, 0.0, &clock);
  double sent = 0;
  for (int i = 0; i < 10000; ++i) {
    double wait = bucket.Acquire(137.0);
    clock.Advance(wait);  // the bytes go once the wait is over
    sent += 137.0;
  }
  double elapsed = clock.Now() - 100.0;
  EXPECT_NEAR(sent / elapsed, 1000.0, 1000.0 * 1e-9);
}

TEST(TokenBucketTest, BurstIsGrantedAtOnceThenRateApplies) {
  ManualClock clock;
  TokenBucket bucket(1000.0, 500.0, &clock);
  EXPECT_DOUBLE_EQ(bucket.Acquire(500.0), 0.0);
  EXPECT_DOUBLE_EQ(bucket.Acquire(100.0), 0.1);
  EXPECT_DOUBLE_EQ(bucket.TimeUntilReady(), 0.1);
  clock.Advance(0.1);
  EXPECT_DOUBLE_EQ(bucket.TimeUntilReady(), 0.0);
}

TEST(TokenBucketTest, IdleTimeEarnsAtMostTheBurst) {
  ManualClock clock;
  TokenBucket bucket(1000.0, 200.0, &clock);
  clock.Advance(3600.0);
  EXPECT_DOUBLE_EQ(bucket.tokens(), 200.0);
  EXPECT_DOUBLE_EQ(bucket.Acquire(200.0), 0.0);
  EXPECT_DOUBLE_EQ(bucket.Acquire(300.0), 0.3);
}

TEST(TokenBucketTest, LateCallersStillGetTheLongRunRate) {
  // A caller that wakes late (scheduling jitter) loses no capacity as long as the burst
  // covers the lateness; over many rounds the rate is within 1%.
  ManualClock clock;
  TokenBucket bucket(1e6, 64 * 1024, &clock);
  double sent = 0;
  for (int i = 0; i < 20000; ++i) {
    clock.Advance(bucket.Acquire(4096.0) + ((i % 7) * 1e-5));
    sent += 4096.0;
  }
  double rate = sent / clock.Now();
  EXPECT_LE(rate, 1e6 * 1.01);
  EXPECT_GE(rate, 1e6 * 0.99);
  EXPECT_LE(sent, 1e6 * clock.Now() + 64 * 1024 + 4096);
}

TEST(TokenBucketTest, SetRateKeepsDebtAndRepaysAtNewRate) {
  ManualClock clock;
  TokenBucket bucket(100.0, 0.0, &clock);
  EXPECT_DOUBLE_EQ(bucket.Acquire(100.0), 1.0);  // 100 bytes of debt
  bucket.SetRate(1000.0);
  EXPECT_DOUBLE_EQ(bucket.TimeUntilReady(), 0.1);
  clock.Advance(0.05);
  bucket.SetRate(500.0);  // 50 bytes of debt left
  EXPECT_DOUBLE_EQ(bucket.TimeUntilReady(), 0.1);
}

TEST(TokenBucketTest, ZeroRateIsUnlimited) {
  ManualClock clock;
  TokenBucket bucket(0.0, 0.0, &clock);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(bucket.Acquire(1e12), 0.0);
  bucket.SetRate(10.0);  // leaving unlimited starts from a full (here empty) bucket, no debt
  EXPECT_DOUBLE_EQ(bucket.Acquire(10.0), 1.0);
}

TEST(TokenBucketTest, RealClockRateWithinTolerance) {
  TokenBucket bucket(20e6, 64 * 1024, SystemClock::Get());
  double start = MonotonicSeconds();
  double sent = 0;
  while (MonotonicSeconds() - start < 0.3) {
    double wait = bucket.Acquire(64 * 1024);
    std::this_thread::sleep_for(std::chrono::duration<double>(wait));  // pacing, not work
    sent += 64 * 1024;
  }
  double rate = (sent - 64 * 1024) / (MonotonicSeconds() - start);  // minus the initial burst
  // Pacing never exceeds the rate: an upper bound, which load cannot break. A descheduled
  // or oversleeping sender can only fall behind, by any amount on a loaded machine, so
  // there is no lower bound here; exactness is checked on virtual time above.
  EXPECT_GT(sent, 64 * 1024);
  EXPECT_LT(rate, 20e6 * 1.1);
}

}  // namespace
}  // namespace mr::shuffle
