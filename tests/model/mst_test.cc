// The delayed-tail distribution and the mean sojourn time of independent mapper nodes:
// hand-worked values, Lemma 3 against a seeded Monte Carlo, the quadrature against the exact
// inclusion-exclusion.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "model/mst/dtd.h"
#include "model/mst/mst.h"
#include "common/rng.h"

namespace mr::model {
namespace {

TEST(DtdTest, CdfSurvivalAndMeanByHand) {
  const Dtd e{.offset = 2, .rate = 0.5};
  EXPECT_EQ(e.Cdf(1.9), 0.0);
  EXPECT_NEAR(e.Cdf(4), 1 - std::exp(-1.0), 1e-15);  // 1 - e^{-0.5 (4 - 2)} = 0.6321206
  EXPECT_NEAR(e.Survival(4), 0.36787944117, 1e-11);
  EXPECT_DOUBLE_EQ(e.Mean(), 4.0);                    // 2 + 1/0.5
  // pareto:1,2,3: scale (3 - 1)/2 = 1, so P(X > 2) = (1 + 1)^-3 = 0.125.
  const Dtd p{.offset = 1, .rate = 2, .tail = Dtd::Tail::kPareto, .shape = 3};
  EXPECT_NEAR(p.Survival(2), 0.125, 1e-15);
  EXPECT_NEAR(p.Cdf(2), 0.875, 1e-15);
  EXPECT_DOUBLE_EQ(p.Mean(), 1.5);
}

TEST(DtdTest, SampleMeansMatchBothTails) {
  for (const Dtd& d : {Dtd{.offset = 2, .rate = 0.5}, Dtd{.offset = 1, .rate = 2, .tail = Dtd::Tail::kPareto}}) {
    Rng rng(11);
    double sum = 0, below = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {
      const double x = d.Sample(rng);
      ASSERT_GE(x, d.offset);
      sum += x;
      below += x <= d.offset + 1.0 / d.rate;
    }
    EXPECT_NEAR(sum / n, d.Mean(), 0.01 * d.Mean()) << d.ToString();
    EXPECT_NEAR(below / n, d.Cdf(d.offset + 1.0 / d.rate), 0.005) << d.ToString();
  }
}

TEST(DtdTest, ExpTailDrawsLikeTheTaskSimulatorsDelayedExp) {
  Rng a(5), b(5);
  const Dtd d{.offset = 0.3, .rate = 4};
  for (int i = 0; i < 10; ++i) EXPECT_DOUBLE_EQ(d.Sample(a), 0.3 + b.Exponential(0.25));
}

TEST(DtdTest, ParseAndErrors) {
  Result<Dtd> e = ParseDtd("exp:0.5,2");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->ToString(), "exp:0.5,2");
  Result<Dtd> p = ParseDtd("pareto:1,0.5");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->ToString(), "pareto:1,0.5,3");
  EXPECT_EQ(ParseDtd("pareto:1,0.5,2.5")->shape, 2.5);
  for (const char* bad : {"exp:1", "exp:-1,2", "exp:1,0", "pareto:1,2,1", "gamma:1,2", "exp:1,x", "exp"}) {
    Result<Dtd> r = ParseDtd(bad);
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find(bad), std::string::npos) << r.status().ToString();
  }
}

// Four M/M/1 nodes mu = 1 sharing lambda = 2: each has mu - lambda_i = 0.5 and
// H_4 = 25/12, so MST = (25/12) / 0.5 = 4.1666...; by Lemma 3 term by term:
// 4/0.5 - 6/1 + 4/1.5 - 1/2 = 8 - 6 + 2.6667 - 0.5.
TEST(MstTest, EqualRatesGiveHarmonicOverSpareRate) {
  EXPECT_NEAR(HarmonicNumber(4), 25.0 / 12, 1e-15);
  EXPECT_NEAR(*MstHomogeneousMm1(4, 1, 2), 25.0 / 6, 1e-14);
  const std::vector<double> mu(4, 1.0), lambda(4, 0.5);
  EXPECT_NEAR(*MstMm1Exact(mu, lambda), 8 - 6 + 8.0 / 3 - 0.5, 1e-13);
  for (int n : {1, 2, 7, 20}) {
    const std::vector<double> m(n, 2.0), l(n, 1.5 / n);
    EXPECT_NEAR(*MstMm1Exact(m, l), HarmonicNumber(n) / (2.0 - 1.5 / n), 1e-9) << n;
  }
}

// Two nodes with spare rates 1 and 2: 1/1 + 1/2 - 1/(1+2) = 7/6.
TEST(MstTest, LemmaThreeTwoNodesByHand) {
  const std::vector<double> mu = {2, 3}, lambda = {1, 1};
  EXPECT_NEAR(*MstMm1Exact(mu, lambda), 7.0 / 6, 1e-15);
}

// R_1 = 1 + Exp(1), R_2 = Exp(1): E[max] = E[R_1] + E[(R_2 - R_1)^+] = 2 + e^{-1} E[e^{-X}]
// = 2 + e^{-1}/2 = 2.18394; the offset formula gives 1 + (1 + e^{-1} - e^{-1}/2).
TEST(MstTest, OffsetsByHand) {
  const std::vector<Dtd> r = {{.offset = 1, .rate = 1}, {.offset = 0, .rate = 1}};
  EXPECT_NEAR(*MstExpTailsExact(r), 2 + std::exp(-1.0) / 2, 1e-14);
  EXPECT_NEAR(*MstNumeric(r), 2 + std::exp(-1.0) / 2, 1e-9);
}

// Lemma 3 against the mean of 200000 seeded draws of the max of independent exponentials
// (standard error about 0.2%): within 1%.
TEST(MstTest, LemmaThreeMatchesMonteCarlo) {
  const std::vector<double> mu = {1, 1, 2, 4, 3}, lambda = {0.375, 0.5, 0.75, 1.5, 2};
  const double exact = *MstMm1Exact(mu, lambda);
  Result<std::vector<Dtd>> r = NodeResponses(mu, lambda, 0);
  ASSERT_TRUE(r.ok());
  Rng rng(20260415);
  const double mc = MstMonteCarlo(*r, 200000, rng);
  EXPECT_NEAR(mc, exact, 0.01 * exact) << "exact " << exact << " monte carlo " << mc;
}

TEST(MstTest, QuadratureMatchesInclusionExclusion) {
  Rng rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Dtd> r;
    const int n = 1 + trial % 14;
    for (int i = 0; i < n; ++i) {
      r.push_back({.offset = trial % 2 ? 5 * rng.Uniform() : 0.0, .rate = 0.05 + 3 * rng.Uniform()});
    }
    const double exact = *MstExpTailsExact(r);
    Result<double> numeric = MstNumeric(r);
    ASSERT_TRUE(numeric.ok()) << numeric.status().ToString();
    EXPECT_NEAR(*numeric, exact, 1e-8 * exact) << "trial " << trial;
  }
}

// Far beyond inclusion-exclusion: 1000 equal nodes, where H_n / (mu - lambda/n) is exact.
TEST(MstTest, QuadratureForManyNodes) {
  const int n = 1000;
  std::vector<double> mu(n, 1.0), lambda(n, 0.6);
  Result<std::vector<Dtd>> r = NodeResponses(mu, lambda, 0);
  ASSERT_TRUE(r.ok());
  EXPECT_NEAR(*Mst(*r), HarmonicNumber(n) / 0.4, 1e-8 * HarmonicNumber(n) / 0.4);
  EXPECT_FALSE(MstExpTailsExact(*r).ok());
  EXPECT_NE(MstMm1Exact(mu, lambda).status().message().find("limited to 20 nodes"), std::string::npos);
}

// A pareto tail has no closed form: the quadrature against Monte Carlo (heavier tail, 2%),
// and one node's MST is its mean T + 1/Delta.
TEST(MstTest, ParetoTailsByQuadrature) {
  const Dtd one{.offset = 0.5, .rate = 2, .tail = Dtd::Tail::kPareto, .shape = 2.5};
  EXPECT_NEAR(*Mst(std::vector<Dtd>{one}), 1.0, 1e-8);
  const std::vector<Dtd> r = {one, {.offset = 1, .rate = 1, .tail = Dtd::Tail::kPareto, .shape = 4},
                              {.offset = 0, .rate = 3}};
  Rng rng(8);
  const double mc = MstMonteCarlo(r, 400000, rng);
  const double numeric = *Mst(r);
  EXPECT_NEAR(numeric, mc, 0.02 * mc);
}

// Tails as heavy as t^-1.2 (infinite variance): one node's MST is still exactly its mean
// T + 1/Delta, and 30 nodes agree with Monte Carlo (3%: the sample mean converges slowly).
TEST(MstTest, HeavyParetoTailsStayAccurate) {
  for (double shape : {1.2, 1.5, 2.0}) {
    const Dtd one{.offset = 0.1, .rate = 1, .tail = Dtd::Tail::kPareto, .shape = shape};
    Result<double> single = MstNumeric(std::vector<Dtd>{one});
    ASSERT_TRUE(single.ok()) << shape << ": " << single.status().ToString();
    EXPECT_NEAR(*single, 1.1, 1e-7) << shape;
  }
  std::vector<Dtd> r;
  for (int i = 0; i < 30; ++i) r.push_back({.offset = 0.1 * i, .rate = 1 + 0.01 * i, .tail = Dtd::Tail::kPareto, .shape = 1.8});
  Rng rng(9);
  const double mc = MstMonteCarlo(r, 400000, rng);
  Result<double> numeric = MstNumeric(r);
  ASSERT_TRUE(numeric.ok()) << numeric.status().ToString();
  EXPECT_NEAR(*numeric, mc, 0.03 * mc);
}

TEST(MstTest, DtdNodeHasOffsetDLambdaOverMu) {
  Result<Dtd> r = DtdNodeResponse(4, 1, 100);  // T = 100 * 1/4 = 25, rate 3
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r->offset, 25);
  EXPECT_DOUBLE_EQ(r->rate, 3);
  EXPECT_NEAR(r->Mean(), 25 + 1.0 / 3, 1e-15);
}

TEST(MstTest, ErrorsNameTheProblem) {
  const std::vector<double> mu = {1, 2}, lambda = {1, 0.5};
  Result<double> unstable = MstMm1Exact(mu, lambda);
  ASSERT_FALSE(unstable.ok());
  EXPECT_NE(unstable.status().message().find("node 1: unstable node: lambda 1 >= mu 1"), std::string::npos)
      << unstable.status().ToString();
  EXPECT_FALSE(MstMm1Exact(std::vector<double>{1, 2}, std::vector<double>{0.5}).ok());
  EXPECT_FALSE(MstHomogeneousMm1(3, 1, 3).ok());
  EXPECT_FALSE(DtdNodeResponse(1, 0.5, -1).ok());
  EXPECT_FALSE(MstMm1Exact(std::vector<double>{}, std::vector<double>{}).ok());
  // The variant kDrop has nothing to wait for when no node gets work.
  EXPECT_FALSE(NodeResponses(std::vector<double>{1, 2}, std::vector<double>{0, 0}, 0, IdleNodes::kDrop).ok());
}

// Eq. 10 takes the max over all N_m nodes: a node with lambda_i = 0 still responds in
// Exp(mu_i). mu = (1, 2), lambda = (0, 1): two Exp(1), MST = 1 + 1 - 1/2 = 3/2; lambda = (0, 0):
// Exp(1) and Exp(2), MST = 1 + 1/2 - 1/3 = 7/6. The variant kDrop leaves the idle node out:
// Exp(1) alone, MST = 1.
TEST(MstTest, IdleNodesAreInTheMaxAsInEq10) {
  const std::vector<double> mu = {1, 2};
  EXPECT_NEAR(*MstMm1Exact(mu, std::vector<double>{0, 1}), 1.5, 1e-15);
  EXPECT_NEAR(*MstMm1Exact(mu, std::vector<double>{0, 0}), 7.0 / 6, 1e-15);
  Result<std::vector<Dtd>> dropped = NodeResponses(mu, std::vector<double>{0, 1}, 0, IdleNodes::kDrop);
  ASSERT_TRUE(dropped.ok());
  ASSERT_EQ(dropped->size(), 1u);
  EXPECT_NEAR(*MstExpTailsExact(*dropped), 1.0, 1e-15);
}

// Eq. 23 may give a node a negative rate; its formulas as written then give R ~ T + Exp(mu -
// lambda) with T = D lambda / mu < 0: mu = 1, lambda = -0.5, D = 2: T = -1, rate 1.5.
TEST(MstTest, PaperNodeAtANegativeRate) {
  Result<Dtd> r = PaperNodeResponse(1, -0.5, 2);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_DOUBLE_EQ(r->offset, -1);
  EXPECT_DOUBLE_EQ(r->rate, 1.5);
  EXPECT_FALSE(DtdNodeResponse(1, -0.5, 2).ok());  // the live node law refuses it
  EXPECT_FALSE(PaperNodeResponse(1, 1, 0).ok());
  // Two M/M/1 nodes at spare rates 1.5 and 1.5 (lambda = -0.5 on mu = 1, 2.5 on mu = 4):
  // MST = H_2 / 1.5 = 1.
  EXPECT_NEAR(*MstMm1Exact(std::vector<double>{1, 4}, std::vector<double>{-0.5, 2.5}), 1.0, 1e-15);
}

// Lemma 10 (Eq. 36): max_i E[R_i] <= MST <= sum_i E[R_i]. Exp(1) and Exp(2): bounds 1 and 3/2
// around MST 7/6; two DTD nodes 25 + Exp(3) and 0 + Exp(1): bounds 25 1/3 and 26 1/3.
TEST(MstTest, Lemma10BoundsByHand) {
  const std::vector<Dtd> two = {Dtd{.offset = 0, .rate = 1}, Dtd{.offset = 0, .rate = 2}};
  Result<MstBounds> b = Lemma10Bounds(two);
  ASSERT_TRUE(b.ok());
  EXPECT_DOUBLE_EQ(b->lower, 1);
  EXPECT_DOUBLE_EQ(b->upper, 1.5);
  const double mst = *MstExpTailsExact(two);
  EXPECT_LE(b->lower, mst);
  EXPECT_LE(mst, b->upper);
  Result<MstBounds> dtd = Lemma10Bounds(std::vector<Dtd>{Dtd{.offset = 25, .rate = 3}, Dtd{.offset = 0, .rate = 1}});
  ASSERT_TRUE(dtd.ok());
  EXPECT_NEAR(dtd->lower, 25 + 1.0 / 3, 1e-14);
  EXPECT_NEAR(dtd->upper, 26 + 1.0 / 3, 1e-14);
  // A node at a negative rate (offset -1, Exp(1)) counts as max(R, 0): mean e^{-1}, not 0.
  Result<MstBounds> neg = Lemma10Bounds(std::vector<Dtd>{Dtd{.offset = -1, .rate = 1}, Dtd{.offset = 0, .rate = 2}});
  ASSERT_TRUE(neg.ok());
  EXPECT_NEAR(neg->lower, 0.5, 1e-15);
  EXPECT_NEAR(neg->upper, 0.5 + std::exp(-1.0), 1e-15);
  EXPECT_FALSE(Lemma10Bounds(std::vector<Dtd>{}).ok());
}

}  // namespace
}  // namespace mr::model
