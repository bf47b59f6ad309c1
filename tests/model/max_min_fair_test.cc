// Weighted max-min fairness by progressive filling (Bertsekas & Gallager, "Data Networks",
// 6.5.2): the expected rates are worked by hand from the definition (the level rises until a
// resource fills; the flows crossing it freeze; the rest rise on), not read off the code.
#include "model/tasksim/max_min_fair.h"

#include <gtest/gtest.h>

#include <vector>

namespace mr::model {
namespace {

constexpr double kB = 20e6;  // one host link, bytes/s

std::vector<double> Rates(const std::vector<FairFlow>& flows, const std::vector<double>& cap) {
  auto r = MaxMinFair(flows, cap);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : std::vector<double>{};
}

// Resources: 0, 1 = two sources' egress; 2 = one receiver's ingress. Each source could give
// its flow B, the receiver takes B in all: the receiver fills at level B/2.
TEST(MaxMinFairTest, TwoSourcesIntoOneReceiverGetHalfEach) {
  const auto r = Rates({{1, {0, 2}}, {1, {1, 2}}}, {kB, kB, kB});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_NEAR(r[0], kB / 2, 1e-6);
  EXPECT_NEAR(r[1], kB / 2, 1e-6);
}

// One source (0), two receivers (1, 2) with nothing else: the source fills at level B/3,
// weights 2 and 1 give 2B/3 and B/3 (the shares' contract, receivers never full).
TEST(MaxMinFairTest, SharesTwoToOneAtOneSourceWithFreeReceivers) {
  const auto r = Rates({{2, {0, 1}}, {1, {0, 2}}}, {kB, kB, kB});
  EXPECT_NEAR(r[0], 2 * kB / 3, 1e-6);
  EXPECT_NEAR(r[1], kB / 3, 1e-6);
}

// A tiny weight (fair_rates.py's 1e-3 for a share-0 job) beside weight 1 at one source: the
// source fills at level B / 1.001, so 1/1.001 and 0.001/1.001 of B.
TEST(MaxMinFairTest, ATinyWeightBesideAPositiveOneAtOneSource) {
  const auto r = Rates({{1, {0, 1}}, {1e-3, {0, 2}}}, {kB, kB, kB});
  EXPECT_NEAR(r[0], kB / 1.001, 1e-3);
  EXPECT_NEAR(r[1], kB * 1e-3 / 1.001, 1e-3);
}

// The tiny-weight flow takes what the positive one leaves: flow a (source 0 -> receiver 3) and
// flow c (source 1 -> receiver 3) fill receiver 3 at level B/2; the small flow z (source 0 ->
// receiver 2) is at 1e-3 x B/2 then and rises alone until source 0 is full: B - B/2.
TEST(MaxMinFairTest, ATinyWeightTakesWhatAReceiverBoundFlowLeaves) {
  const auto r = Rates({{1, {0, 3}}, {1, {1, 3}}, {1e-3, {0, 2}}}, {kB, kB, kB, kB});
  EXPECT_NEAR(r[0], kB / 2, 1e-3);
  EXPECT_NEAR(r[1], kB / 2, 1e-3);
  EXPECT_NEAR(r[2], kB / 2, 1e-3);
}

// A weight of 0 gets nothing, and the others fill as if it were not there.
TEST(MaxMinFairTest, WeightZeroGetsNothing) {
  const auto r = Rates({{0, {0}}, {1, {0}}}, {kB});
  EXPECT_EQ(r[0], 0);
  EXPECT_NEAR(r[1], kB, 1e-6);
}

// The textbook chain: link 0 (capacity 1) carries flows A and B, link 1 (capacity 2) carries
// A and C. Level 1/2 fills link 0 (A + B = 1): A and B freeze at 1/2. C rises alone on link 1's
// remaining 2 - 1/2 - 1/2 = 1, to 1/2 + 1 = 3/2.
TEST(MaxMinFairTest, AChainFillsOneLinkThenRaisesTheRest) {
  const auto r = Rates({{1, {0, 1}}, {1, {0}}, {1, {1}}}, {1, 2});
  EXPECT_NEAR(r[0], 0.5, 1e-12);
  EXPECT_NEAR(r[1], 0.5, 1e-12);
  EXPECT_NEAR(r[2], 1.5, 1e-12);
}

// Weighted and three levels: links 0, 1, 2 of capacity 6, 10, 100. A (weight 2) crosses 0 and 1,
// B (weight 1) crosses 0, C (weight 1) crosses 1 and 2, D (weight 1) crosses 2.
// Level t: link 0 carries 3t (full at 2), link 1 carries 3t (full at 10/3), link 2 2t.
// At t = 2 link 0 fills: A = 4, B = 2. Then link 1 has 10 - 4 - 2 = 4 for C alone: C = 6
// (level 6), link 2 then carries C + D = 12 < 100. D alone rises to 100 - 6 = 94.
TEST(MaxMinFairTest, WeightedThreeLevels) {
  const auto r = Rates({{2, {0, 1}}, {1, {0}}, {1, {1, 2}}, {1, {2}}}, {6, 10, 100});
  EXPECT_NEAR(r[0], 4, 1e-9);
  EXPECT_NEAR(r[1], 2, 1e-9);
  EXPECT_NEAR(r[2], 6, 1e-9);
  EXPECT_NEAR(r[3], 94, 1e-9);
}

TEST(MaxMinFairTest, NoFlowsNoRates) { EXPECT_TRUE(Rates({}, {kB}).empty()); }

TEST(MaxMinFairTest, BadInputsAreRefused) {
  EXPECT_FALSE(MaxMinFair({{-1, {0}}}, {kB}).ok());
  EXPECT_FALSE(MaxMinFair({{1, {1}}}, {kB}).ok());        // no resource 1
  EXPECT_FALSE(MaxMinFair({{1, {}}}, {kB}).ok());         // unbounded
  EXPECT_FALSE(MaxMinFair({{1, {0}}}, {-kB}).ok());
  EXPECT_TRUE(MaxMinFair({{0, {}}}, {kB}).ok());          // weight 0 needs no resource
}

}  // namespace
}  // namespace mr::model
