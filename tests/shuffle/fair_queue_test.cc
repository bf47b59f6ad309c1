#include "shuffle/net/fair_queue.h"

#include <map>
#include <set>

#include <gtest/gtest.h>

#include "common/clock.h"

namespace mr::shuffle {
namespace {

constexpr double kCapacity = 1e6;   // bytes/s
constexpr double kBurst = 16384;
constexpr uint64_t kChunk = 4096;

// Drives a FairQueue on virtual time with a set of always-backlogged jobs (each keeps
// `depth` requests queued, like several sender threads), recording bytes per job.
class FairQueueSim {
 public:
  FairQueueSim() : queue_(kCapacity, kBurst, &clock_) {}

  void Backlog(uint64_t job, int depth = 2) {
    for (int i = 0; i < depth; ++i) queue_.Enqueue(job, kChunk);
    active_.insert(job);
  }
  void StopJob(uint64_t job) { active_.erase(job); }  // its queued requests drain, none added

  // Runs until virtual time `until`; returns bytes granted per job in this window.
  std::map<uint64_t, uint64_t> RunUntil(double until) {
    std::map<uint64_t, uint64_t> got;
    for (;;) {
      double wait = queue_.TimeUntilNextGrant();
      if (clock_.Now() + wait > until) break;
      clock_.Advance(wait);
      auto g = queue_.GrantNext();
      EXPECT_TRUE(g.has_value());
      if (!g) break;
      got[g->job] += g->bytes;
      total_ += g->bytes;
      // The link never carries more than capacity * t + burst (+ the chunk just granted;
      // 1e-3 byte is the bucket's nanosecond readiness slack).
      EXPECT_LE(static_cast<double>(total_), kCapacity * clock_.Now() + kBurst + kChunk + 1e-3);
      if (active_.count(g->job)) queue_.Enqueue(g->job, kChunk);
    }
    clock_.Set(until);
    return got;
  }

  FairQueue& queue() { return queue_; }
  uint64_t total() const { return total_; }

 private:
  ManualClock clock_;
  FairQueue queue_;
  std::set<uint64_t> active_;
  uint64_t total_ = 0;
};

TEST(FairQueueTest, BackloggedJobsSplitInProportionToShares) {
  FairQueueSim sim;
  sim.queue().SetShares({{1, 0.75}, {2, 0.25}});
  sim.Backlog(1);
  sim.Backlog(2);
  auto got = sim.RunUntil(10.0);
  double ratio = static_cast<double>(got[1]) / static_cast<double>(got[2]);
  EXPECT_NEAR(ratio, 3.0, 0.03);
  // Work-conserving: the link was kept busy the whole time.
  EXPECT_GE(static_cast<double>(sim.total()), kCapacity * 10.0 - kChunk);
}

TEST(FairQueueTest, AJobAloneGetsTheWholeCapacity) {
  FairQueueSim sim;
  sim.queue().SetShares({{1, 0.75}, {2, 0.25}});
  sim.Backlog(2);
  auto got = sim.RunUntil(5.0);
  EXPECT_GE(static_cast<double>(got[2]), kCapacity * 5.0 - kChunk);
  EXPECT_EQ(got.count(1), 0u);
}

TEST(FairQueueTest, ZeroShareJobOnlyBorrowsUnusedCapacity) {
  FairQueueSim sim;
  sim.queue().SetShares({{1, 0.5}});  // job 3 has no share at all
  sim.Backlog(1);
  sim.Backlog(3);
  auto got = sim.RunUntil(2.0);
  EXPECT_GE(static_cast<double>(got[1]), kCapacity * 2.0 - kChunk);
  EXPECT_EQ(got[3], 0u);
  sim.StopJob(1);
  auto later = sim.RunUntil(4.0);
  EXPECT_LE(later[1], 2 * kChunk);  // only what was still queued
  EXPECT_GE(static_cast<double>(later[3]), kCapacity * 2.0 - 3 * kChunk);
}

TEST(FairQueueTest, JobsWithoutSharesSplitEqually) {
  FairQueueSim sim;
  sim.Backlog(4);
  sim.Backlog(5);
  sim.Backlog(6);
  auto got = sim.RunUntil(3.0);
  for (uint64_t job : {4, 5, 6}) {
    EXPECT_NEAR(static_cast<double>(got[job]), kCapacity, kCapacity * 0.01) << "job " << job;
  }
}

TEST(FairQueueTest, IdleJobEarnsNoCreditForLaterBursts) {
  FairQueueSim sim;
  sim.queue().SetShares({{1, 0.5}, {2, 0.5}});
  sim.Backlog(1);
  sim.RunUntil(5.0);  // job 2 idle for 5 s
  sim.Backlog(2);
  auto got = sim.RunUntil(7.0);
  double ratio = static_cast<double>(got[2]) / static_cast<double>(got[1]);
  EXPECT_NEAR(ratio, 1.0, 0.03);
}

TEST(FairQueueTest, NewSharesTakeEffectImmediately) {
  FairQueueSim sim;
  sim.queue().SetShares({{1, 0.8}, {2, 0.2}});
  sim.Backlog(1);
  sim.Backlog(2);
  auto first = sim.RunUntil(2.0);
  EXPECT_NEAR(static_cast<double>(first[1]) / first[2], 4.0, 0.1);
  sim.queue().SetShares({{1, 0.2}, {2, 0.8}});
  auto second = sim.RunUntil(4.0);
  EXPECT_NEAR(static_cast<double>(second[2]) / second[1], 4.0, 0.1);
  sim.queue().SetShares({{1, 0.2}});  // job 2 drops to the lending class
  auto third = sim.RunUntil(5.0);
  EXPECT_LE(third[2], 2 * kChunk);
}

TEST(FairQueueTest, CancelRemovesAQueuedRequest) {
  ManualClock clock;
  FairQueue q(1000.0, 0.0, &clock);
  uint64_t a = q.Enqueue(1, 100);
  uint64_t b = q.Enqueue(2, 100);
  q.Cancel(a);
  auto g = q.GrantNext();
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->ticket, b);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.TimeUntilNextGrant(), std::numeric_limits<double>::infinity());
}

TEST(FairQueueTest, UnlimitedCapacityGrantsEverythingAtOnce) {
  ManualClock clock;
  FairQueue q(0.0, 0.0, &clock);
  for (int i = 0; i < 10; ++i) q.Enqueue(i % 3, 1 << 30);
  int granted = 0;
  while (q.GrantNext()) ++granted;
  EXPECT_EQ(granted, 10);
}

}  // namespace
}  // namespace mr::shuffle
