// FIFO and FAIR of the FLEX paper's simulation on a case worked out by hand.
#include "model/flex/flex_baselines.h"

#include <gtest/gtest.h>

#include <vector>

namespace mr::model {
namespace {

// S = 10. A: work 10, min 1, max 3. B: work 30, min 2, max 10. C: work 40, min 5, max 10.
flex::FlexProblem ThreeJobs() {
  flex::FlexProblem p;
  p.slots = 10;
  auto job = [](double work, int min, int max) {
    flex::FlexJob j;
    j.work = work;
    j.min_slots = min;
    j.max_slots = max;
    return j;
  };
  p.jobs = {job(10, 1, 3), job(30, 2, 10), job(40, 5, 10)};
  return p;
}

// FIFO ignores the minima and packs in arrival order A, B, C up to the maxima:
//   from 0: A 3 (its maximum), B the other 7, C nothing. A is done at 10/3; B has
//   30 - 7 * 10/3 = 20/3 left.
//   from 10/3: B takes all 10 and is done 2/3 later, at 4; C still has all of its 40.
//   from 4: C on 10 slots, done at 8.
TEST(FlexBaselinesTest, FifoByHand) {
  auto c = FifoCompletions(ThreeJobs());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_DOUBLE_EQ((*c)[0], 10.0 / 3);
  EXPECT_DOUBLE_EQ((*c)[1], 4);
  EXPECT_DOUBLE_EQ((*c)[2], 8);
}

// FAIR gives every job clamp(L, min, max) with the level L filling the 10 slots:
//   from 0: L = 2.5 -> A 2.5, B 2.5, C 5 (its minimum). A is done at 10/2.5 = 4; B has
//   30 - 10 = 20 left, C 40 - 20 = 20.
//   from 4: L = 5 -> B 5, C 5: both are done 20/5 = 4 later, at 8.
TEST(FlexBaselinesTest, FairByHand) {
  auto c = FairCompletions(ThreeJobs());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_DOUBLE_EQ((*c)[0], 4);
  EXPECT_DOUBLE_EQ((*c)[1], 8);
  EXPECT_DOUBLE_EQ((*c)[2], 8);
}

TEST(FlexBaselinesTest, WaterLevelShares) {
  using V = std::vector<double>;
  EXPECT_EQ(WaterLevelShares(V{1, 2, 5}, V{3, 10, 10}, 10), (V{2.5, 2.5, 5}));
  EXPECT_EQ(WaterLevelShares(V{0, 0}, V{1, 2}, 10), (V{1, 2}));          // demand below capacity
  EXPECT_EQ(WaterLevelShares(V{0, 0, 0}, V{1, 9, 9}, 7), (V{1, 3, 3}));  // one capped low
  EXPECT_EQ(WaterLevelShares(V{4, 6}, V{8, 8}, 10), (V{4, 6}));          // minima fill it
}

}  // namespace
}  // namespace mr::model
