// common/stats.h against values worked out by hand.
#include "common/stats.h"

#include <gtest/gtest.h>

#include <vector>

namespace mr {
namespace {

TEST(StatsTest, Mean) {
  EXPECT_DOUBLE_EQ(Mean(std::vector<double>{}), 0);
  EXPECT_DOUBLE_EQ(Mean(std::vector<double>{4}), 4);
  EXPECT_DOUBLE_EQ(Mean(std::vector<double>{1, 2, 6}), 3);       // 9 / 3
  EXPECT_DOUBLE_EQ(Mean(std::vector<double>{-1, 1, 0.5}), 0.5 / 3);
}

TEST(StatsTest, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(Median({}), 0);
  EXPECT_DOUBLE_EQ(Median({3, 1, 2}), 2);        // sorted 1 2 3
  EXPECT_DOUBLE_EQ(Median({4, 1, 3, 2}), 2.5);   // (2 + 3) / 2
  EXPECT_DOUBLE_EQ(Median({7}), 7);
}

TEST(StatsTest, LinearQuantileInterpolatesBetweenOrderStatistics) {
  const std::vector<double> five = {5, 1, 4, 2, 3};  // sorted 1..5, positions 0..4
  EXPECT_DOUBLE_EQ(QuantileLinear(five, 0), 1);
  EXPECT_DOUBLE_EQ(QuantileLinear(five, 0.25), 2);     // position 1
  EXPECT_DOUBLE_EQ(QuantileLinear(five, 0.5), 3);      // position 2
  EXPECT_DOUBLE_EQ(QuantileLinear(five, 0.9), 4.6);    // position 3.6: 4 + 0.6 * (5 - 4)
  EXPECT_DOUBLE_EQ(QuantileLinear(five, 1), 5);
  EXPECT_DOUBLE_EQ(QuantileLinear(five, 2), 5);        // clamped
  EXPECT_DOUBLE_EQ(QuantileLinear(five, -1), 1);
  const std::vector<double> four = {10, 20, 30, 40};   // median at position 1.5
  EXPECT_DOUBLE_EQ(QuantileLinear(four, 0.5), 25);
  EXPECT_DOUBLE_EQ(QuantileLinear(std::vector<double>{}, 0.5), 0);
  EXPECT_DOUBLE_EQ(QuantileLinear(std::vector<double>{7}, 0.9), 7);
}

// The selection finds the order statistic after position lo among values in any order, ties
// and a descending run included (worked by hand on the sorted lists in the comments).
TEST(StatsTest, LinearQuantileOnUnsortedValuesWithTies) {
  const std::vector<double> desc = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0};  // sorted 0..9
  EXPECT_DOUBLE_EQ(QuantileLinear(desc, 0.25), 2.25);  // position 2.25: 2 + 0.25 * (3 - 2)
  EXPECT_DOUBLE_EQ(QuantileLinear(desc, 0.75), 6.75);  // position 6.75
  const std::vector<double> ties = {3, 1, 3, 3, 0, 10};  // sorted 0 1 3 3 3 10
  EXPECT_DOUBLE_EQ(QuantileLinear(ties, 0.5), 3);       // position 2.5: 3 + 0.5 * (3 - 3)
  EXPECT_DOUBLE_EQ(QuantileLinear(ties, 0.9), 6.5);     // position 4.5: 3 + 0.5 * (10 - 3)
  EXPECT_DOUBLE_EQ(QuantileLinear(ties, 0.1), 0.5);     // position 0.5: 0 + 0.5 * (1 - 0)
}

TEST(StatsTest, NearestRankQuantileTakesAnObservedValue) {
  const std::vector<double> ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  EXPECT_DOUBLE_EQ(QuantileNearestRank(ten, 0.5), 5);   // rank ceil(5) = 5
  EXPECT_DOUBLE_EQ(QuantileNearestRank(ten, 0.9), 9);   // rank 9
  EXPECT_DOUBLE_EQ(QuantileNearestRank(ten, 0.91), 10); // rank ceil(9.1) = 10
  EXPECT_DOUBLE_EQ(QuantileNearestRank(ten, 0.99), 10);
  EXPECT_DOUBLE_EQ(QuantileNearestRank(ten, 0), 1);     // rank 0 clamped to 1
  const std::vector<double> three = {0.5, 2, 8};
  EXPECT_DOUBLE_EQ(QuantileNearestRank(three, 0.5), 2);   // rank ceil(1.5) = 2
  EXPECT_DOUBLE_EQ(QuantileNearestRank(three, 0.34), 2);  // rank ceil(1.02) = 2
  EXPECT_DOUBLE_EQ(QuantileNearestRank(three, 0.33), 0.5);
  EXPECT_DOUBLE_EQ(QuantileNearestRank(std::vector<double>{}, 0.5), 0);
}

TEST(StatsTest, LinearQuantileIsNumpysDefault) {
  // numpy.quantile([1, 2, 3, 4, 10], [0.5, 0.9]) = [3, 7.6]
  EXPECT_DOUBLE_EQ(QuantileLinear(std::vector<double>{10, 1, 3, 2, 4}, 0.5), 3);
  EXPECT_DOUBLE_EQ(QuantileLinear(std::vector<double>{10, 1, 3, 2, 4}, 0.9), 7.6);
  EXPECT_DOUBLE_EQ(QuantileLinear(std::vector<double>{1, 2}, 0.5), 1.5);
}

TEST(StatsTest, ScvIsTheSampleVarianceOverTheSquaredMean) {
  // {1, 2, 3}: mean 2, squared deviations 1 + 0 + 1 = 2, variance 2 / 2 = 1, scv 1 / 4.
  EXPECT_DOUBLE_EQ(Scv(std::vector<double>{1, 2, 3}), 0.25);
  // {2, 4, 4, 4, 5, 5, 7, 9}: mean 5, squared deviations 32, variance 32 / 7, scv 32 / 175.
  EXPECT_DOUBLE_EQ(Scv(std::vector<double>{2, 4, 4, 4, 5, 5, 7, 9}), 32.0 / 175);
  EXPECT_DOUBLE_EQ(Scv(std::vector<double>{3}), 0);
  EXPECT_DOUBLE_EQ(Scv(std::vector<double>{-1, 1}), 0);  // zero mean
  EXPECT_DOUBLE_EQ(Scv(std::vector<double>{}), 0);
}

// The two definitions differ: the point of having both by name.
TEST(StatsTest, TheTwoQuantilesDiffer) {
  const std::vector<double> ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  EXPECT_DOUBLE_EQ(QuantileLinear(ten, 0.9), 9.1);  // position 8.1
  EXPECT_DOUBLE_EQ(QuantileNearestRank(ten, 0.9), 9);
  EXPECT_DOUBLE_EQ(QuantileLinear(ten, 0.5), 5.5);
  EXPECT_DOUBLE_EQ(QuantileNearestRank(ten, 0.5), 5);
}

}  // namespace
}  // namespace mr
