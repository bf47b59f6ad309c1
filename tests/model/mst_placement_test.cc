// The map placement solvers (fair, D-EP, S-EP as Eq. 23 and its clamp variant, M-EP by secant
// in its three mean-response variants) and the optimal number of mappers, on hand-worked
// instances. Tests of a variant name it (sep-clamp, mep-clamp, the budget's at-most rule).
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "model/mst/mst.h"
#include "model/mst/mst_mappers.h"
#include "model/mst/mst_optimum.h"
#include "model/mst/mst_placement.h"

namespace mr::model {
namespace {

double Sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

void ExpectRates(const std::vector<double>& got, const std::vector<double>& want, double tol = 1e-12) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "node " << i + 1;
}

const std::vector<double> kMu = {1, 1, 2, 4};  // sum 8

TEST(MstPlacementTest, FairAndDeterministicByHand) {
  ExpectRates(*FairRates(kMu, 3), {0.75, 0.75, 0.75, 0.75});
  ExpectRates(*DepRates(kMu, 3), {0.375, 0.375, 0.75, 1.5});  // 3 mu_i / 8
  // D-EP equalises utilisation lambda_i / mu_i = 3/8.
  std::vector<double> dep = *DepRates(kMu, 3);
  for (size_t i = 0; i < kMu.size(); ++i) EXPECT_NEAR(dep[i] / kMu[i], 0.375, 1e-15);
}

// mu = {2, 3, 4}, lambda = 6: spare (9 - 6)/3 = 1 each, no clamp: lambda = {1, 2, 3};
// MST = H_3 / 1 = 11/6.
TEST(MstPlacementTest, StochasticEquilibriumWithoutClamp) {
  const std::vector<double> mu = {2, 3, 4};
  std::vector<double> sep = *SepRates(mu, 6);
  ExpectRates(sep, {1, 2, 3});
  EXPECT_NEAR(*MstMm1Exact(mu, sep), 11.0 / 6, 1e-14);
}

// Eq. 23 where Eq. 24 fails: mu = {1, 4, 4}, lambda = 4: spare (9 - 4)/3 = 5/3 for every node,
// lambda = {-2/3, 7/3, 7/3}, MST = H_3 / (5/3) = 11/10. mu = {1, 1, 2, 4}, lambda = 3: spare
// 5/4, lambda = {-1/4, -1/4, 3/4, 11/4}, MST = H_4 / (5/4) = 5/3 (every node in the max).
TEST(MstPlacementTest, StochasticEquilibriumNegativeRatesAsEq23) {
  ExpectRates(*SepRates(std::vector<double>{1, 4, 4}, 4), {-2.0 / 3, 7.0 / 3, 7.0 / 3});
  EXPECT_NEAR(*MstMm1Exact(std::vector<double>{1, 4, 4}, *SepRates(std::vector<double>{1, 4, 4}, 4)), 1.1, 1e-14);
  std::vector<double> sep = *SepRates(kMu, 3);
  ExpectRates(sep, {-0.25, -0.25, 0.75, 2.75});
  EXPECT_NEAR(*MstMm1Exact(kMu, sep), 5.0 / 3, 1e-14);
  // Eq. 24 holds (sum (mu_i - mu_min) = 2 + 3 = 5 < 6): spare 2/3, every rate > 0, as the clamp.
  ExpectRates(*SepRates(std::vector<double>{1, 3, 4}, 6), {1.0 / 3, 7.0 / 3, 10.0 / 3});
  ExpectRates(*SepClampedRates(std::vector<double>{1, 3, 4}, 6), {1.0 / 3, 7.0 / 3, 10.0 / 3});
}

// The variant sep-clamp: mu = {1, 4, 4}, lambda = 4: node 1 gets 0 and the others share:
// spare (8 - 4)/2 = 2, lambda = {0, 2, 2}. mu = {1, 1, 2, 4}, lambda = 3: spare 5/4 >= 1 drops
// both slow nodes, then (6 - 3)/2 = 1.5: lambda = {0, 0, 0.5, 2.5}. Its MST with the idle nodes
// left out (the variant IdleNodes::kDrop) is H_2 / 1.5 = 1 (the "1.0" of the clamped worked
// example); with them in the max (Exp(1) twice, Exp(1.5) twice), as Eq. 10 counts them,
// 1 + 1 + 2/1.5 - [1/2 + 4/2.5 + 1/3] + [2/3.5 + 2/4] - 1/5 = 2.5047619...
TEST(MstPlacementTest, SepClampVariantByHand) {
  ExpectRates(*SepClampedRates(std::vector<double>{1, 4, 4}, 4), {0, 2, 2});
  std::vector<double> sep = *SepClampedRates(kMu, 3);
  ExpectRates(sep, {0, 0, 0.5, 2.5});
  EXPECT_NEAR(*MstExpTailsExact(*NodeResponses(kMu, sep, 0, IdleNodes::kDrop)), 1.0, 1e-14);
  const double counted = 2 + 2 / 1.5 - (0.5 + 4 / 2.5 + 1.0 / 3) + (2 / 3.5 + 0.5) - 0.2;
  EXPECT_NEAR(*MstMm1Exact(kMu, sep), counted, 1e-14);
  EXPECT_EQ(*ParsePlacement("sep-clamp"), Placement::kSepClamp);
}

// Lemma 6's ordering on this instance: stochastic < deterministic < fair.
// 50 nodes of mu 0.8 and 50 of mu 1 (the sum accumulates to just under 90) at lambda = 10: the
// spare rate (90 - 10)/100 = 0.8 leaves the slow nodes exactly 0, not a rounding residue.
TEST(MstPlacementTest, SepClampVariantIgnoresRoundingResidue) {
  std::vector<double> mu(50, 0.8);
  mu.insert(mu.end(), 50, 1.0);
  std::vector<double> sep = *SepClampedRates(mu, 10);
  EXPECT_EQ(sep[0], 0.0);
  EXPECT_NEAR(sep[99], 0.2, 1e-12);
}

TEST(MstPlacementTest, MstOrderingOfTheBasicPlacements) {
  const double fair = *MstMm1Exact(kMu, *FairRates(kMu, 3));
  const double dep = *MstMm1Exact(kMu, *DepRates(kMu, 3));
  const double sep = *MstMm1Exact(kMu, *SepRates(kMu, 3));
  EXPECT_LT(sep, dep);
  EXPECT_LT(dep, fair);
}

// M-EP satisfies its equation (Eq. 37): for the paper's dtd nodes every node, a negative rate
// included (Eq. 40), has mean response alpha; for mg1 / gg1 (and the mep-clamp variant) every
// node that gets work has, every node left out is slower than alpha even idle. The rates sum
// to lambda.
void ExpectMeansEquilibrium(const std::vector<double>& mu, double lambda, const MepParams& p, bool clamp = false) {
  Result<MepSolution> s = MepRates(mu, lambda, p, clamp);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_NEAR(Sum(s->lambda), lambda, 1e-12 * lambda);
  EXPECT_LE(s->iterations, 60);
  const bool every_node = !clamp && p.model == MeanResponseModel::kDtd;
  for (size_t i = 0; i < mu.size(); ++i) {
    if (every_node || s->lambda[i] > 0) {
      EXPECT_LT(s->lambda[i], mu[i]);
      EXPECT_NEAR(MeanResponse(p, mu, i, s->lambda[i]), s->alpha, 1e-9 * s->alpha) << "node " << i + 1;
    } else {
      EXPECT_GE(MeanResponse(p, mu, i, 0), s->alpha * (1 - 1e-9)) << "node " << i + 1;
    }
  }
}

TEST(MstPlacementTest, MeansEquilibriumSolvesItsEquations) {
  for (double d : {0.0, 0.01, 3.5, 100.0}) {
    MepParams p;
    p.d = d;
    ExpectMeansEquilibrium(kMu, 3, p);
    ExpectMeansEquilibrium(kMu, 7.5, p);
    ExpectMeansEquilibrium({0.7, 0.8, 0.9, 1, 1, 1.25, 3}, 2, p);
    ExpectMeansEquilibrium(kMu, 3, p, /*clamp=*/true);  // the mep-clamp variant
    ExpectMeansEquilibrium({0.7, 0.8, 0.9, 1, 1, 1.25, 3}, 2, p, /*clamp=*/true);
  }
  MepParams mg1;
  mg1.model = MeanResponseModel::kMg1;
  mg1.service_scv = {0, 0.5, 2, 1};  // M/D/1 to a high-variance node
  ExpectMeansEquilibrium(kMu, 3, mg1);
  MepParams gg1;
  gg1.model = MeanResponseModel::kGg1;
  gg1.arrival_scv = 0.3;
  gg1.service_scv = {0.2};
  ExpectMeansEquilibrium(kMu, 6, gg1);
}

// With D = 0 the DTD node is M/M/1 and equal means (Eq. 40) is S-EP's Eq. 23, negative rates
// included. M/G/1 with exponential service (cs2 = 1) and G/G/1 with ca2 = cs2 = 1 are the
// clamped S-EP (their mean response is not extended below lambda = 0), as is the mep-clamp
// variant of any model.
TEST(MstPlacementTest, MeansEquilibriumReducesToStochasticForMm1) {
  MepParams dtd, mg1, gg1;
  mg1.model = MeanResponseModel::kMg1;
  gg1.model = MeanResponseModel::kGg1;
  ExpectRates(MepRates(kMu, 3, dtd)->lambda, {-0.25, -0.25, 0.75, 2.75}, 1e-10);
  for (const MepParams& p : {dtd, mg1, gg1}) {
    ExpectRates(MepRates(kMu, 3, p, /*clamp=*/true)->lambda, {0, 0, 0.5, 2.5}, 1e-10);
    if (p.model != MeanResponseModel::kDtd) ExpectRates(MepRates(kMu, 3, p)->lambda, {0, 0, 0.5, 2.5}, 1e-10);
    ExpectRates(MepRates(std::vector<double>{2, 3, 4}, 6, p)->lambda, {1, 2, 3}, 1e-10);
  }
}

// DM-EP (Eq. 38): d E[R_i] / d lambda_i = D / mu_i + 1 / (mu_i - lambda_i)^2 equal. mu = {1, 2},
// D = 10, lambda = 13/6: beta = 14 gives node 1 10 + 1/(1/2)^2 and node 2 5 + 1/(1/3)^2:
// lambda = {1/2, 5/3}. With D = 0 it is S-EP's Eq. 23 (negatives included); dmep-clamp
// with D = 0 is sep-clamp.
TEST(MstPlacementTest, DerivativeOfMeansEquilibriumByHand) {
  MepParams p;
  p.d = 10;
  Result<MepSolution> s = DmepRates(std::vector<double>{1, 2}, 13.0 / 6, p);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ExpectRates(s->lambda, {0.5, 5.0 / 3}, 1e-12);
  EXPECT_NEAR(s->alpha, 14, 1e-9);
  EXPECT_NEAR(MeanResponseSlope(p, std::vector<double>{1, 2}, 0, 0.5), 14, 1e-12);
  MepParams mm1;
  ExpectRates(DmepRates(kMu, 3, mm1)->lambda, {-0.25, -0.25, 0.75, 2.75}, 1e-10);
  ExpectRates(DmepRates(kMu, 3, mm1, /*clamp=*/true)->lambda, {0, 0, 0.5, 2.5}, 1e-10);
  ExpectRates(*PlacementRates(Placement::kDmepClamp, kMu, 3, mm1), {0, 0, 0.5, 2.5}, 1e-10);
  EXPECT_EQ(*ParsePlacement("dmep"), Placement::kDmep);
}

// DM-EP minimises Lemma 10's upper bound sum_i E[R_i] over the rates summing to lambda: moving
// any epsilon of rate between two nodes raises it.
TEST(MstPlacementTest, DerivativeOfMeansEquilibriumMinimisesTheUpperBound) {
  const std::vector<double> mu = {0.7, 0.8, 1, 1.25, 3};
  for (double d : {0.0, 3.5, 100.0}) {
    MepParams p;
    p.d = d;
    Result<MepSolution> s = DmepRates(mu, 4, p);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    EXPECT_NEAR(Sum(s->lambda), 4, 1e-12);
    auto bound = [&](const std::vector<double>& r) {
      double b = 0;
      for (size_t i = 0; i < mu.size(); ++i) b += MeanResponse(p, mu, i, r[i]);
      return b;
    };
    const double best = bound(s->lambda);
    for (size_t i = 0; i < mu.size(); ++i) {
      for (size_t j = 0; j < mu.size(); ++j) {
        if (i == j) continue;
        std::vector<double> r = s->lambda;
        r[i] += 1e-3, r[j] -= 1e-3;
        EXPECT_GT(bound(r), best) << "D " << d << " from node " << j + 1 << " to " << i + 1;
      }
    }
  }
}

// Two equal M/D/1 nodes must split evenly whatever the variance; the secant finds alpha =
// 1/mu + lambda_i (1 + 0) / (2 mu (mu - lambda_i)) = 1 + 0.5/(2 * 0.5) = 1.5.
TEST(MstPlacementTest, MeansEquilibriumByHandForMd1) {
  MepParams p;
  p.model = MeanResponseModel::kMg1;
  p.service_scv = {0};
  Result<MepSolution> s = MepRates(std::vector<double>{1, 1}, 1, p);
  ASSERT_TRUE(s.ok());
  ExpectRates(s->lambda, {0.5, 0.5}, 1e-12);
  EXPECT_NEAR(s->alpha, 1.5, 1e-12);
}

// A large D pushes M-EP towards D-EP (the offsets D lambda_i/mu_i dominate and are equal
// when utilisations are equal).
TEST(MstPlacementTest, LargeDMovesMeansEquilibriumTowardsDeterministic) {
  MepParams p;
  p.d = 1e4;
  ExpectRates(MepRates(kMu, 3, p)->lambda, *DepRates(kMu, 3), 2e-3);
}

TEST(MstPlacementTest, StabilityAndInputErrors) {
  Result<std::vector<double>> fair = FairRates(kMu, 4.5);  // 4.5 / 4 >= min mu = 1
  ASSERT_FALSE(fair.ok());
  EXPECT_NE(fair.status().message().find("lambda/N = 1.125 >= min mu = 1"), std::string::npos)
      << fair.status().ToString();
  for (Placement pl : {Placement::kFair, Placement::kDep, Placement::kSep, Placement::kSepClamp, Placement::kMep,
                       Placement::kMepClamp, Placement::kDmep, Placement::kDmepClamp}) {
    Result<std::vector<double>> r = PlacementRates(pl, kMu, 8);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("overloaded: lambda 8 >= sum of mu 8"), std::string::npos);
    EXPECT_FALSE(PlacementRates(pl, kMu, 0).ok());
    EXPECT_FALSE(PlacementRates(pl, std::vector<double>{}, 1).ok());
    EXPECT_FALSE(PlacementRates(pl, std::vector<double>{1, -1}, 0.5).ok());
  }
  MepParams p;
  p.model = MeanResponseModel::kMg1;
  p.service_scv = {1, 1};  // 2 values for 4 nodes
  EXPECT_FALSE(MepRates(kMu, 3, p).ok());
  p.model = MeanResponseModel::kGg1;
  p.service_scv = {0};
  p.arrival_scv = 0;  // D/D/1: nothing to balance
  EXPECT_FALSE(MepRates(kMu, 3, p).ok());
  EXPECT_EQ(*ParsePlacement("even"), Placement::kFair);
  EXPECT_FALSE(ParsePlacement("pull").ok());
  EXPECT_FALSE(ParseMeanResponseModel("mm1").ok());
}

// The numerical search never does worse than the placements it could have picked, and for
// M/M/1 nodes finds S-EP's MST (optimal by Lemma 6): mu = (2, 3, 4), lambda = 6 -> 11/6 with
// every node working; mu = (1, 1, 2, 4), lambda = 3 -> 1 with both slow nodes idle.
TEST(MstOptimumTest, SearchFindsTheStochasticOptimumAndBeatsEveryPlacement) {
  Result<OptimumResult> a = OptimalGroupRates(std::vector<double>{2, 3, 4}, 6, 0, false);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_NEAR(a->mst, 11.0 / 6, 1e-6);
  // Kept working, the slow nodes cost: an idle mu = 1 node alone already responds in Exp(1).
  Result<OptimumResult> busy = OptimalGroupRates(kMu, 3, 0, false);
  ASSERT_TRUE(busy.ok()) << busy.status().ToString();
  EXPECT_GT(busy->mst, 1.5);
  for (double r : busy->lambda) EXPECT_GT(r, 0);
  Result<OptimumResult> b = OptimalGroupRates(kMu, 3, 0, true);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_NEAR(b->mst, 1.0, 1e-6);
  EXPECT_NEAR(Sum(b->lambda), 3, 1e-9);
  EXPECT_EQ(b->lambda[0], 0);
  EXPECT_EQ(b->lambda[1], 0);
  const std::vector<double> mu = {0.8, 0.8, 0.8, 1, 1, 1};
  for (double d : {0.0, 3.5, 100.0}) {
    Result<OptimumResult> o = OptimalGroupRates(mu, 3, d, true);
    ASSERT_TRUE(o.ok()) << o.status().ToString();
    EXPECT_NEAR(Sum(o->lambda), 3, 1e-9);
    MepParams p;
    p.d = d;
    for (Placement pl : {Placement::kFair, Placement::kDep, Placement::kSep, Placement::kMep}) {
      const double mst = *Mst(*NodeResponses(mu, *PlacementRates(pl, mu, 3, p), d));
      EXPECT_LE(o->mst, mst * (1 + 1e-9)) << PlacementName(pl) << " D " << d;
    }
    // GroupMst is the per-node MST.
    EXPECT_NEAR(o->mst, *Mst(*NodeResponses(mu, o->lambda, d)), 1e-8 * o->mst);
  }
  EXPECT_EQ(GroupNodes(mu).size(), 2u);
}

// mu = 1, lambda = 2: f(n) = H_n / (1 - 2/n) for n >= 3. f(7) = (363/140)/(5/7) = 3.63,
// f(8) = (761/280)/(3/4) = 761/210 = 3.6238, f(9) = (7129/2520)/(7/9) = 3.6372: the knee is 8.
TEST(MstMappersTest, KneeByHand) {
  EXPECT_NEAR(*MstHomogeneousMm1(7, 1, 2), 3.63, 1e-12);
  EXPECT_NEAR(*MstHomogeneousMm1(9, 1, 2), 64161.0 / 17640, 1e-12);
  Result<KneeResult> k = OptimalMapperCount(1, 2);
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->n, 8);
  EXPECT_NEAR(k->mst, 761.0 / 210, 1e-12);
  // Exhaustive check that no n up to 2000 beats it.
  for (int n = 3; n <= 2000; ++n) EXPECT_GE(*MstHomogeneousMm1(n, 1, 2), k->mst) << n;
  EXPECT_FALSE(OptimalMapperCount(0, 2).ok());
  EXPECT_FALSE(OptimalMapperCount(1, -1).ok());
}

// LP 1/400 and HP 1.25/800, budget 2000, lambda 1: f = N H_N / (N_lp + 1.25 N_hp - 1).
// Lemma 13 spends the budget exactly: 400 N_lp + 800 N_hp = 2000 leaves (5,0) 5 H_5 / 4 =
// 137/48, (3,1) 4 H_4 / 3.25 = 100/39, (1,2) 3 H_3 / 2.5 = 2.2, the least: 3 vectors.
// The variant at-most (<= 2000) also has (3,0) 5.5/2 = 2.75, (2,1) 5.5/2.25 = 2.44,
// (1,1) 3/1.25 = 2.4, (0,2) 3/1.5 = 2.0 (the least, costing 1600), ...: 12 vectors.
TEST(MstMappersTest, BudgetMixByHand) {
  Result<std::vector<NodeType>> types = ParseNodeTypes("lp:1:400,hp:1.25:800");
  ASSERT_TRUE(types.ok());
  Result<MixResult> m = OptimalMix(*types, 1, 2000);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->counts, (std::vector<int>{1, 2}));
  EXPECT_NEAR(m->mst, 2.2, 1e-14);
  EXPECT_EQ(m->cost, 2000);
  EXPECT_EQ(m->evaluated, 3);
  EXPECT_NEAR(MixMst(*types, std::vector<int>{3, 1}, 1), 100.0 / 39, 1e-14);
  Result<MixResult> at_most = OptimalMix(*types, 1, 2000, 50'000'000, BudgetRule::kAtMost);
  ASSERT_TRUE(at_most.ok()) << at_most.status().ToString();
  EXPECT_EQ(at_most->counts, (std::vector<int>{0, 2}));
  EXPECT_NEAR(at_most->mst, 2.0, 1e-14);
  EXPECT_EQ(at_most->cost, 1600);
  EXPECT_EQ(at_most->evaluated, 12);
  // 2100 is no sum of 400s and 800s: no count vector spends it exactly.
  EXPECT_FALSE(OptimalMix(*types, 1, 2100).ok());
  EXPECT_NEAR(MixMst(*types, std::vector<int>{1, 2}, 1), 2.2, 1e-14);
  EXPECT_FALSE(OptimalMix(*types, 10, 2000).ok());  // 5 LP nodes cannot serve 10
  EXPECT_FALSE(OptimalMix(*types, 1, 1e9).ok());    // too many candidates
  EXPECT_FALSE(ParseNodeTypes("lp:1").ok());
  EXPECT_FALSE(ParseNodeTypes("lp:1:0").ok());
  EXPECT_FALSE(ParseNodeTypes(":1:2").ok());
}

}  // namespace
}  // namespace mr::model
