// The Malleable Packing Scheme against schedules worked out by hand from the paper's Fig. 3.
#include <gtest/gtest.h>

#include <vector>

#include "scheduler/flex/mps.h"

namespace mr::flex {
namespace {

std::vector<int> Slots(const PackedSchedule& s, size_t interval) {
  return s.intervals.at(interval).slots;
}

// S = 10 slots, priority order A, B, C.
//   A: work 20, m 2, M 6    B: work 30, m 2, M 10    C: work 15, m 3, M 4
// Interval 1, from t = 0: minima 2 + 2 + 3 = 7, slack 3, all to A (room 6 - 2 = 4): A 5,
//   B 2, C 3. A would finish at 20/5 = 4, B at 30/2 = 15, C at 15/3 = 5: A finishes at 4.
//   Left: B 30 - 2*4 = 22, C 15 - 3*4 = 3.
// Interval 2, from t = 4: minima B 2 + C 3 = 5, slack 5, all to B (room 10 - 2 = 8): B 7,
//   C 3. B would finish at 4 + 22/7, C at 4 + 3/3 = 5: C finishes at 5. Left: B 22 - 7 = 15.
// Interval 3, from t = 5: B alone, minimum 2 + slack 8 = 10 slots: 15/10 = 1.5, done at 6.5.
TEST(FlexMpsTest, HandWorkedThreeJobs) {
  std::vector<PackJob> jobs = {{20, 2, 6}, {30, 2, 10}, {15, 3, 4}};
  auto s = PackMalleable(10, 0, jobs, std::vector<int>{0, 1, 2});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->intervals.size(), 3u);
  EXPECT_EQ(Slots(*s, 0), (std::vector<int>{5, 2, 3}));
  EXPECT_EQ(Slots(*s, 1), (std::vector<int>{0, 7, 3}));
  EXPECT_EQ(Slots(*s, 2), (std::vector<int>{0, 10, 0}));
  EXPECT_DOUBLE_EQ(s->intervals[0].start, 0);
  EXPECT_DOUBLE_EQ(s->intervals[0].end, 4);
  EXPECT_DOUBLE_EQ(s->intervals[1].end, 5);
  EXPECT_DOUBLE_EQ(s->intervals[2].end, 6.5);
  EXPECT_DOUBLE_EQ(s->completion[0], 4);
  EXPECT_DOUBLE_EQ(s->completion[1], 6.5);
  EXPECT_DOUBLE_EQ(s->completion[2], 5);
}

// The same jobs with C first: interval 1 gives C its room 1 and A the remaining 2 of the
// slack: A 4, B 2, C 4. C finishes at 15/4 = 3.75; A has 20 - 15 = 5 left, B 30 - 7.5 = 22.5.
// Interval 2: slack 10 - 4 = 6, C is gone, A takes 4 (to its maximum 6), B the last 2 (4):
// A finishes at 3.75 + 5/6; B has 22.5 - 4 * 5/6 = 115/6 left. Interval 3: B alone on 10:
// done at 3.75 + 5/6 + 115/60.
TEST(FlexMpsTest, OrderChangesThePacking) {
  std::vector<PackJob> jobs = {{20, 2, 6}, {30, 2, 10}, {15, 3, 4}};
  auto s = PackMalleable(10, 0, jobs, std::vector<int>{2, 0, 1});
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->intervals.size(), 3u);
  EXPECT_EQ(Slots(*s, 0), (std::vector<int>{4, 2, 4}));
  EXPECT_EQ(Slots(*s, 1), (std::vector<int>{6, 4, 0}));
  EXPECT_DOUBLE_EQ(s->completion[2], 3.75);
  EXPECT_DOUBLE_EQ(s->completion[0], 3.75 + 5.0 / 6);
  EXPECT_NEAR(s->completion[1], 3.75 + 5.0 / 6 + 115.0 / 60, 1e-12);
}

// A: work 4, m 1, M 2; B: work 4, m 2, M 2; S = 4. Minima 3, slack 1 to A: both run on 2
// slots and finish at 2 together: one interval, not a second one of zero length.
TEST(FlexMpsTest, SimultaneousFinishesLeaveTogether) {
  std::vector<PackJob> jobs = {{4, 1, 2}, {4, 2, 2}};
  auto s = PackMalleable(4, 0, jobs, std::vector<int>{0, 1});
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->intervals.size(), 1u);
  EXPECT_EQ(Slots(*s, 0), (std::vector<int>{2, 2}));
  EXPECT_DOUBLE_EQ(s->completion[0], 2);
  EXPECT_DOUBLE_EQ(s->completion[1], 2);
}

// Minimum 0 and no slack left for B: it holds 0 slots while A runs (2 slots, done at 1),
// then gets both (done at 1 + 2/2 = 2).
TEST(FlexMpsTest, JobWithNoSlotsMakesNoProgress) {
  std::vector<PackJob> jobs = {{2, 0, 2}, {2, 0, 2}};
  auto s = PackMalleable(2, 0, jobs, std::vector<int>{0, 1});
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->intervals.size(), 2u);
  EXPECT_EQ(Slots(*s, 0), (std::vector<int>{2, 0}));
  EXPECT_EQ(Slots(*s, 1), (std::vector<int>{0, 2}));
  EXPECT_DOUBLE_EQ(s->completion[1], 2);
}

TEST(FlexMpsTest, ZeroWorkFinishesAtStartWithNoSlots) {
  std::vector<PackJob> jobs = {{0, 3, 5}, {6, 1, 3}};
  auto s = PackMalleable(4, 10, jobs, std::vector<int>{0, 1});
  ASSERT_TRUE(s.ok());
  EXPECT_DOUBLE_EQ(s->completion[0], 10);
  ASSERT_EQ(s->intervals.size(), 1u);
  EXPECT_EQ(Slots(*s, 0), (std::vector<int>{0, 3}));  // B at its maximum; one slot idle
  EXPECT_DOUBLE_EQ(s->completion[1], 12);
}

// Minima 6 + 6 on 4 slots are normalised to 2 + 2 before packing: with the minima kept the
// packing would be infeasible.
TEST(FlexMpsTest, MinimaAboveSlotsAreNormalised) {
  std::vector<PackJob> jobs = {{8, 6, 6}, {8, 6, 6}};
  auto s = PackMalleable(4, 0, jobs, std::vector<int>{1, 0});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(Slots(*s, 0), (std::vector<int>{2, 2}));
  EXPECT_DOUBLE_EQ(s->completion[0], 4);
}

TEST(FlexMpsTest, NormalizeMinimaIsLargestRemainder) {
  EXPECT_EQ(NormalizeMinima(std::vector<int>{60, 60, 60}, 100), (std::vector<int>{34, 33, 33}));
  // 5 and 3 on 4: exact 2.5 and 1.5, floors 2 and 1, the spare slot to the lower index.
  EXPECT_EQ(NormalizeMinima(std::vector<int>{5, 3}, 4), (std::vector<int>{3, 1}));
  // 7, 2, 1 on 5: exact 3.5, 1, 0.5: floors 3, 1, 0; spare to the largest fraction (tie: 0).
  EXPECT_EQ(NormalizeMinima(std::vector<int>{7, 2, 1}, 5), (std::vector<int>{4, 1, 0}));
  EXPECT_EQ(NormalizeMinima(std::vector<int>{1, 2}, 5), (std::vector<int>{1, 2}));  // fits
}

TEST(FlexMpsTest, RejectsBadInput) {
  std::vector<int> order{0};
  EXPECT_FALSE(PackMalleable(0, 0, std::vector<PackJob>{{1, 0, 1}}, order).ok());
  EXPECT_FALSE(PackMalleable(4, 0, std::vector<PackJob>{{1, 3, 2}}, order).ok());  // M < m
  EXPECT_FALSE(PackMalleable(4, 0, std::vector<PackJob>{{1, 0, 0}}, order).ok());  // M = 0
  EXPECT_FALSE(PackMalleable(4, 0, std::vector<PackJob>{{-1, 0, 1}}, order).ok());
  EXPECT_FALSE(PackMalleable(4, 0, std::vector<PackJob>{{1, 0, 1}, {1, 0, 1}}, order).ok());
  EXPECT_FALSE(
      PackMalleable(4, 0, std::vector<PackJob>{{1, 0, 1}, {1, 0, 1}}, std::vector<int>{1, 1}).ok());
  EXPECT_TRUE(PackMalleable(4, 0, std::vector<PackJob>{{0, 0, 0}}, order).ok());  // done job
}

}  // namespace
}  // namespace mr::flex
