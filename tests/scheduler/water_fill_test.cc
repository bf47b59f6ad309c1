#include "scheduler/util/water_fill.h"

#include <gtest/gtest.h>

namespace mr::sched {
namespace {

std::vector<double> Fill(std::vector<FairItem> items, double cap) { return WaterFill(items, cap); }

TEST(WaterFillTest, EqualSplit) {
  EXPECT_EQ(Fill({{1, 0, 10}, {1, 0, 10}, {1, 0, 10}}, 6), (std::vector<double>{2, 2, 2}));
}

TEST(WaterFillTest, CappedDemandLeavesRestToOthers) {
  auto s = Fill({{1, 0, 1}, {1, 0, 10}, {1, 0, 10}}, 6);
  EXPECT_DOUBLE_EQ(s[0], 1);
  EXPECT_DOUBLE_EQ(s[1], 2.5);
  EXPECT_DOUBLE_EQ(s[2], 2.5);
}

TEST(WaterFillTest, WeightsAndMinimums) {
  auto w = Fill({{2, 0, 10}, {1, 0, 10}}, 6);
  EXPECT_DOUBLE_EQ(w[0], 4);
  EXPECT_DOUBLE_EQ(w[1], 2);
  auto m = Fill({{1, 4, 10}, {1, 0, 10}, {1, 0, 10}}, 6);
  EXPECT_DOUBLE_EQ(m[0], 4);
  EXPECT_DOUBLE_EQ(m[1], 1);
  EXPECT_DOUBLE_EQ(m[2], 1);
}

TEST(WaterFillTest, MinimumsAboveCapacityScaleDown) {
  auto s = Fill({{1, 6, 10}, {1, 2, 10}}, 4);
  EXPECT_DOUBLE_EQ(s[0], 3);
  EXPECT_DOUBLE_EQ(s[1], 1);
}

TEST(WaterFillTest, CapacityAboveDemandGivesEveryoneItsDemand) {
  EXPECT_EQ(Fill({{1, 0, 1}, {1, 0, 2}}, 100), (std::vector<double>{1, 2}));
  EXPECT_TRUE(Fill({}, 5).empty());
}

}  // namespace
}  // namespace mr::sched
