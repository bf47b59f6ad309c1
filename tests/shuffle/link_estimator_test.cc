// The link estimator's equations (shuffle/net/link_estimator.h) on virtual time: B is the
// largest backlogged delivery rate (bytes acknowledged / round) of the window; pacing is
// gain x B with the gains probe 1.25, drain 0.75, cruise 0.97, one per round.
#include "shuffle/net/link_estimator.h"

#include <gtest/gtest.h>

#include "common/clock.h"
#include "shuffle/net/share_limiter.h"

namespace mr::shuffle {
namespace {

constexpr double kRound = 0.25;

// One round in which `jobs` jobs send, `bytes` are acknowledged, and (if full) a send
// found its socket full; returns the pacing rate once the round has closed.
double Round(LinkEstimator& e, ManualClock& clock, double bytes, bool full, int jobs = 2, bool paced = false) {
  for (int j = 0; j < jobs; ++j) e.OnJobSending(static_cast<uint64_t>(j + 1));
  e.OnDelivered(bytes);
  if (full) e.OnSocketFull();
  if (paced) e.OnPaceLimited();
  clock.Advance(kRound);
  return e.Update();
}

// The first backlogged round gives no sample (sample_rounds = 2); the second, with two jobs
// and full sockets, gives B and starts pacing at the drain. Returns the pacing rate.
double Enter(LinkEstimator& e, ManualClock& clock, double bytes) {
  Round(e, clock, bytes, true);
  return Round(e, clock, bytes, true);
}

TEST(LinkEstimatorTest, UnpacedUntilTheLinkIsTheBottleneckOfTwoJobs) {
  ManualClock clock(10.0);
  LinkEstimator e(&clock);
  EXPECT_EQ(Round(e, clock, 5e6, /*full=*/false), 0.0);         // no queue: TCP is not held back
  EXPECT_EQ(Round(e, clock, 5e6, /*full=*/true, /*jobs=*/1), 0.0);  // one job: no shares to keep
  EXPECT_FALSE(e.paced());
  // Two jobs and a full socket: B = 4.8 MB / 0.25 s; pacing starts with the drain.
  const double rate = Round(e, clock, 4.8e6, /*full=*/true, /*jobs=*/2);
  ASSERT_TRUE(e.paced());
  // The window's maximum: the earlier unbacklogged 5 MB round raised B (it did not lower it).
  EXPECT_DOUBLE_EQ(e.bandwidth(), 5e6 / kRound);
  EXPECT_DOUBLE_EQ(rate, 0.75 * e.bandwidth());
}

TEST(LinkEstimatorTest, GainsCycleProbeDrainCruise) {
  ManualClock clock;
  LinkEstimator e(&clock);
  const double b = 4e6 / kRound;
  ASSERT_DOUBLE_EQ(Enter(e, clock, 4e6), 0.75 * b);  // entered at the drain
  // The drain round closes; then the cruise: six rounds at 0.97 B, the pacer holding the
  // senders (backlogged).
  for (int i = 0; i < 6; ++i) EXPECT_DOUBLE_EQ(Round(e, clock, 0.97 * b * kRound, false, 2, true), 0.97 * b) << i;
  // Then the probe at 1.25 B; the link delivers only B and the sockets fill: B holds.
  EXPECT_DOUBLE_EQ(Round(e, clock, 0.97 * b * kRound, false, 2, true), 1.25 * b);
  EXPECT_DOUBLE_EQ(Round(e, clock, b * kRound, true, 2, true), 0.75 * b);
  EXPECT_DOUBLE_EQ(e.bandwidth(), b);
}

TEST(LinkEstimatorTest, ProbeThatFindsMoreRaisesTheEstimate) {
  ManualClock clock;
  LinkEstimator e(&clock);
  const double b = 4e6 / kRound;
  Enter(e, clock, 4e6);
  for (int i = 0; i < 7; ++i) Round(e, clock, 0.97 * b * kRound, false, 2, true);  // drain, 6 cruise
  ASSERT_DOUBLE_EQ(e.pacing_rate(), 1.25 * b);
  // The link carried 1.1 B of the probe's 1.25 B and queued (socket full): the sample is the
  // rate over the probe and the cruise round before it, (0.97 + 1.1) / 2 B.
  const double raised = (0.97 + 1.1) / 2 * b;
  EXPECT_DOUBLE_EQ(Round(e, clock, 1.1 * b * kRound, true, 2, true), 0.75 * raised);
  EXPECT_DOUBLE_EQ(e.bandwidth(), raised);
}

TEST(LinkEstimatorTest, ProbeWithoutQueueingEndsPacing) {
  ManualClock clock;
  LinkEstimator e(&clock);
  const double b = 4e6 / kRound;
  Enter(e, clock, 4e6);
  for (int i = 0; i < 7; ++i) Round(e, clock, 0.97 * b * kRound, false, 2, true);  // drain, 6 cruise
  // All of 1.25 B delivered, no socket full: the link is faster than B; measure it unpaced.
  EXPECT_EQ(Round(e, clock, 1.25 * b * kRound, false, 2, true), 0.0);
  EXPECT_FALSE(e.paced());
  // ... not on the first contended full round (no fresh sample yet), but on the second, at
  // the drain of the larger B.
  EXPECT_EQ(Round(e, clock, 2 * b * kRound, true), 0.0);
  EXPECT_DOUBLE_EQ(Round(e, clock, 2 * b * kRound, true), 0.75 * 2 * b);
}

TEST(LinkEstimatorTest, SamplesLeaveTheWindow) {
  ManualClock clock;
  LinkEstimator::Params p;
  LinkEstimator e(&clock, p);
  const double high = 8e6 / kRound, low = 4e6 / kRound;
  Enter(e, clock, 8e6);  // rounds 0 and 1: B = high, sampled at round 1
  // The link slowed down: every later round is backlogged at `low`. Round 2's sample spans
  // one high and one low round.
  for (int r = 2; r <= p.window_rounds; ++r) {
    Round(e, clock, 4e6, true, 2, true);
    ASSERT_DOUBLE_EQ(e.bandwidth(), high) << r;
  }
  Round(e, clock, 4e6, true, 2, true);  // round 1's sample is window_rounds old now
  EXPECT_DOUBLE_EQ(e.bandwidth(), (high + low) / 2);
  Round(e, clock, 4e6, true, 2, true);  // and round 2's
  EXPECT_DOUBLE_EQ(e.bandwidth(), low);
}

// Acknowledgements reported in lumps: the link delivers 19.1 MB/s, but the rounds read 23.1
// and 15.1 MB/s by turns (as measured on 20 MB/s links). One round alone made B 23.1 MB/s,
// and the pacer's 0.97 B stayed above the link, so TCP, not the shares, divided it; over two
// backlogged rounds the lumps cancel.
TEST(LinkEstimatorTest, LumpyAcknowledgementsDoNotRaiseTheEstimateAboveTheLink) {
  ManualClock clock;
  LinkEstimator e(&clock);
  const double link = 19.1e6, lump = 4e6;
  for (int i = 0; i < 24; ++i) {
    const double rate = i % 2 == 0 ? link + lump : link - lump;
    Round(e, clock, rate * kRound, /*full=*/true, 2, e.paced());
    if (i >= 1) {
      ASSERT_DOUBLE_EQ(e.bandwidth(), link) << i;
    }
  }
  EXPECT_TRUE(e.paced());
  EXPECT_LE(e.pacing_rate(), 1.25 * link);
  // Each round alone (the estimator before): B is the lump.
  LinkEstimator::Params one;
  one.sample_rounds = 1;
  LinkEstimator single(&clock, one);
  for (int i = 0; i < 4; ++i) Round(single, clock, (i % 2 == 0 ? link + lump : link - lump) * kRound, true);
  EXPECT_DOUBLE_EQ(single.bandwidth(), link + lump);
}

TEST(LinkEstimatorTest, IdleRoundsEndPacingAndSilenceSkipsRounds) {
  ManualClock clock;
  LinkEstimator::Params p;
  LinkEstimator e(&clock, p);
  Enter(e, clock, 4e6);
  ASSERT_TRUE(e.paced());
  for (int i = 1; i < p.idle_rounds; ++i) Round(e, clock, 0, false, 0);
  EXPECT_TRUE(e.paced());
  Round(e, clock, 0, false, 0);
  EXPECT_FALSE(e.paced());
  // An hour of silence: one Update, the window empty, still unpaced.
  clock.Advance(3600);
  EXPECT_EQ(e.Update(), 0.0);
}

// The limiter's capacity is the estimator's pacing rate, fed by the senders' reports.
TEST(LinkEstimatorTest, ShareLimiterPacesAtTheEstimate) {
  ManualClock clock;
  ShareLimiter limiter(0, &clock);
  limiter.EstimateLink();
  ASSERT_TRUE(limiter.estimating());
  for (int round = 0; round < 2; ++round) {  // the first backlogged round gives no sample
    limiter.Delivered(1, 2e6);
    limiter.Delivered(2, 2e6);
    limiter.SocketFull(1);
    clock.Advance(kRound);
  }
  limiter.Delivered(1, 0);  // any report closes the round
  EXPECT_DOUBLE_EQ(limiter.estimated_link_rate(), 4e6 / kRound);
  EXPECT_DOUBLE_EQ(limiter.capacity(), 0.75 * 4e6 / kRound);
  // A configured capacity ends the estimation.
  limiter.SetCapacity(1e6);
  EXPECT_FALSE(limiter.estimating());
  EXPECT_DOUBLE_EQ(limiter.capacity(), 1e6);
}

TEST(LinkEstimatorTest, ConfiguredCapacityIsNeverEstimated) {
  ManualClock clock;
  ShareLimiter limiter(1e6, &clock);
  limiter.EstimateLink();
  EXPECT_FALSE(limiter.estimating());
}

}  // namespace
}  // namespace mr::shuffle
