#include "shuffle/net/share_limiter.h"

#include <atomic>
#include <cmath>
#include <map>
#include <chrono>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "common/clock.h"
#include "tests/common/wait.h"

namespace mr::shuffle {
namespace {

using mr::testing::WaitUntil;

// Virtual time: 1 MB/s with 4 KiB chunks is a chunk every ~4 ms of the ManualClock.
constexpr double kCapacity = 1e6;  // bytes/s
constexpr uint64_t kChunk = 4096;
constexpr double kStep = 0.002;  // seconds of virtual time per step
constexpr double kRealDeadline = 30.0;  // per step, real seconds: only a hang reaches it

// Sender threads acquiring chunks back to back through a ShareLimiter on a ManualClock.
// The test steps the clock only when every sender is parked (blocked, having seen the
// current time, holding no grant), so what each job gets depends on the limiter alone,
// never on how the machine schedules the threads.
class VirtualSenders {
 public:
  // A burst of one chunk: more than the credit a grant can earn waiting for the next step
  // (kStep * kCapacity), which a smaller burst would throw away.
  VirtualSenders(double capacity, const std::map<uint64_t, double>& shares)
      : limiter_(capacity, &clock_, /*burst_bytes=*/kChunk) {
    limiter_.SetShares(shares);
  }
  ~VirtualSenders() {
    limiter_.Shutdown();  // every sender's Acquire returns false and its loop ends
    for (auto& t : threads_) t.join();
  }

  void Start(const std::vector<uint64_t>& jobs, int threads_per_job) {
    for (uint64_t job : jobs) {
      for (int i = 0; i < threads_per_job; ++i) {
        threads_.emplace_back([this, job] {
          while (limiter_.Acquire(job, kChunk)) {
          }
        });
      }
    }
  }

  // Steps the clock until virtual time `until`; false if the senders ever failed to
  // settle (a limiter that lost a wake-up or granted without counting).
  bool RunUntil(double until) {
    while (clock_.Now() < until) {
      if (!Settle()) return false;
      clock_.Advance(kStep);
      limiter_.ClockAdvanced();
    }
    return Settle();
  }

  ShareLimiter& limiter() { return limiter_; }
  double now() const { return clock_.Now(); }

 private:
  bool Settle() {
    return WaitUntil([&] { return limiter_.parked() == threads_.size(); }, kRealDeadline, 1e-4);
  }

  ManualClock clock_;
  ShareLimiter limiter_;
  std::vector<std::thread> threads_;
};

TEST(ShareLimiterTest, UnlimitedNeverWaitsAndCounts) {
  // The clock never moves: a limiter that paced an unlimited link would block forever.
  ManualClock frozen;
  ShareLimiter limiter(0, &frozen);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(limiter.Acquire(i % 2, 1 << 20));
  EXPECT_EQ(limiter.parked(), 0u);
  EXPECT_EQ(limiter.bytes_sent(), 1000ull << 20);
  auto by_job = limiter.bytes_sent_by_job();
  EXPECT_EQ(by_job[0], 500ull << 20);
  EXPECT_EQ(by_job[1], 500ull << 20);
}

TEST(ShareLimiterTest, TwoBackloggedJobsSplitThreeToOne) {
  // Two sender threads per job keep both jobs backlogged, as a worker's shuffle server does.
  VirtualSenders s(kCapacity, {{1, 0.75}, {2, 0.25}});
  s.Start({1, 2}, 2);
  ASSERT_TRUE(s.RunUntil(2.0)) << "senders stopped settling at t=" << s.now();
  auto by_job = s.limiter().bytes_sent_by_job();
  // 3:1 to within two chunks over ~490 chunks.
  EXPECT_LE(std::abs(static_cast<double>(by_job[1]) - 3.0 * static_cast<double>(by_job[2])),
            2.0 * 3.0 * kChunk)
      << by_job[1] << " vs " << by_job[2];
  double total = static_cast<double>(s.limiter().bytes_sent());
  // The cap: capacity x time plus the burst and the chunk granted last; and
  // work-conserving: the link never idled with senders waiting.
  EXPECT_LE(total, kCapacity * s.now() + 2 * kChunk);
  EXPECT_GE(total, kCapacity * s.now() - kChunk);
}

TEST(ShareLimiterTest, JobAloneBorrowsTheWholeCapacity) {
  VirtualSenders s(kCapacity, {{1, 0.75}, {2, 0.25}});
  s.Start({2}, 2);  // the job with the smaller share, and nobody else backlogged
  ASSERT_TRUE(s.RunUntil(1.0)) << "senders stopped settling at t=" << s.now();
  double total = static_cast<double>(s.limiter().bytes_sent());
  EXPECT_GE(total, kCapacity * s.now() - kChunk);
  EXPECT_LE(total, kCapacity * s.now() + 2 * kChunk);
  EXPECT_EQ(s.limiter().bytes_sent_by_job()[2], s.limiter().bytes_sent());
}

TEST(ShareLimiterTest, RealClockNeverExceedsTheCap) {
  // The production clock. Only the upper bound is checked: it holds however loaded the
  // machine is (a starved sender sends less, never more); the split and the lower bound
  // are checked on virtual time above.
  constexpr double kRealCapacity = 16e6;
  constexpr uint64_t kRealChunk = 64 * 1024;
  ShareLimiter limiter(kRealCapacity);
  limiter.SetShares({{1, 0.75}, {2, 0.25}});
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  double start = MonotonicSeconds();
  for (uint64_t job : {1, 2}) {
    threads.emplace_back([&, job] {
      while (!stop.load() && limiter.Acquire(job, kRealChunk)) {
      }
    });
  }
  // Run until ~40 chunks have gone (0.16 s unloaded), so the cap has time to bind.
  EXPECT_TRUE(WaitUntil([&] { return limiter.bytes_sent() >= 40 * kRealChunk; }, 60.0));
  stop = true;
  limiter.Shutdown();
  for (auto& t : threads) t.join();
  double elapsed = MonotonicSeconds() - start;
  EXPECT_LE(static_cast<double>(limiter.bytes_sent()),
            kRealCapacity * elapsed + ShareLimiter::kDefaultBurstBytes + 2 * kRealChunk);
}

TEST(ShareLimiterTest, CancelledRequestsAreNeverCounted) {
  // 1 byte/s and no burst: after the first chunk nothing more is granted for ~forever.
  // A sender queues its next chunk before sending the current one, and withdraws it when
  // the transfer fails.
  ShareLimiter limiter(1.0, SystemClock::Get(), 0.0);
  limiter.SetShares({{1, 0.5}, {2, 0.5}});
  uint64_t first = limiter.Request(1, 100);
  ASSERT_NE(first, 0u);
  ASSERT_TRUE(limiter.Wait(first));  // the bucket starts full enough for one grant
  uint64_t next = limiter.Request(1, 100);
  uint64_t other = limiter.Request(2, 100);
  limiter.Cancel(other);             // withdrawn: never counted
  limiter.Cancel(next);
  EXPECT_EQ(limiter.bytes_sent(), 100u);
  EXPECT_EQ(limiter.bytes_sent_by_job().count(2), 0u);
  limiter.ForgetJob(1);  // a finished job's entry goes; the link total stays
  EXPECT_EQ(limiter.bytes_sent_by_job().count(1), 0u);
  EXPECT_EQ(limiter.bytes_sent(), 100u);
  limiter.Shutdown();
  EXPECT_EQ(limiter.Request(1, 100), 0u);
  EXPECT_FALSE(limiter.Wait(0));
}

TEST(ShareLimiterTest, UnlimitedRequestsAreGrantedAtOnce) {
  ShareLimiter limiter(0);
  uint64_t a = limiter.Request(1, 10);
  uint64_t b = limiter.Request(2, 20);
  EXPECT_TRUE(limiter.Wait(b));
  EXPECT_TRUE(limiter.Wait(a));
  EXPECT_EQ(limiter.bytes_sent(), 30u);
}

TEST(ShareLimiterTest, ShutdownReleasesBlockedSenders) {
  ShareLimiter limiter(1.0, SystemClock::Get(), 0.0);  // 1 byte/s: the second chunk waits ~forever
  ASSERT_TRUE(limiter.Acquire(1, kChunk));
  std::atomic<int> result{-1};
  std::thread t([&] { result = limiter.Acquire(1, kChunk) ? 1 : 0; });
  // Shutdown must release a sender that is already blocked, not one yet to arrive.
  EXPECT_TRUE(WaitUntil([&] { return limiter.parked() == 1; }, kRealDeadline));
  limiter.Shutdown();
  t.join();
  EXPECT_EQ(result.load(), 0);
  EXPECT_FALSE(limiter.Acquire(1, 1));
  EXPECT_EQ(limiter.bytes_sent(), kChunk);
}

TEST(ShareLimiterTest, RaisingCapacityToUnlimitedReleasesWaiters) {
  ShareLimiter limiter(1.0, SystemClock::Get(), 0.0);
  ASSERT_TRUE(limiter.Acquire(1, kChunk));
  std::thread t([&] { EXPECT_TRUE(limiter.Acquire(1, kChunk)); });
  EXPECT_TRUE(WaitUntil([&] { return limiter.parked() == 1; }, kRealDeadline));
  limiter.SetCapacity(0);
  t.join();
  EXPECT_EQ(limiter.bytes_sent(), 2 * kChunk);
}

}  // namespace
}  // namespace mr::shuffle
