// The straggling-mappers paper's G/M/1 nodes (Lemma 7, Algorithm 1) and its Lemma 12 (Eq. 47)
// on hand-worked instances.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "model/mst/gm1.h"
#include "model/mst/mst.h"
#include "model/mst/mst_mappers.h"
#include "model/mst/mst_placement.h"

namespace mr::model {
namespace {

// r0 is the root in (0, 1) of z = A*(mu (1 - z)). Poisson arrivals: A*(s) = lambda / (lambda +
// s) gives r0 = lambda / mu (the M/M/1 response Exp(mu - lambda)). Erlang-2 at lambda = 1,
// mu = 2: z = (2 / (2 + 2 (1 - z)))^2, i.e. z (2 - z)^2 = 1, (z - 1)(z^2 - 3z + 1) = 0:
// r0 = (3 - sqrt 5) / 2, response rate 2 (1 - r0) = sqrt 5 - 1. Constant gaps (D/M/1) at
// lambda = 1, mu = 2: z = exp(-2 (1 - z)), r0 = 0.2031878699...
TEST(Gm1Test, RootOfLemma7ByHand) {
  const ArrivalLaw exp_law = *ParseArrivalLaw("exp");
  EXPECT_NEAR(*Gm1Root(exp_law, 1.5, 4), 1.5 / 4, 1e-13);
  EXPECT_NEAR(*Gm1ResponseRate(exp_law, 1.5, 4), 2.5, 1e-12);
  const ArrivalLaw erlang2 = *ParseArrivalLaw("erlang:2");
  EXPECT_NEAR(*Gm1Root(erlang2, 1, 2), (3 - std::sqrt(5.0)) / 2, 1e-13);
  EXPECT_NEAR(*Gm1ResponseRate(erlang2, 1, 2), std::sqrt(5.0) - 1, 1e-12);
  const ArrivalLaw det = *ParseArrivalLaw("det");
  const double r0 = *Gm1Root(det, 1, 2);
  EXPECT_NEAR(r0, 0.20318786997998, 1e-12);
  EXPECT_NEAR(r0, std::exp(-2 * (1 - r0)), 1e-13);
  // h2 with SCV 4: the root satisfies its own equation and lies above Poisson's (burstier
  // arrivals, a slower response).
  const ArrivalLaw h2 = *ParseArrivalLaw("h2:4");
  const double rh = *Gm1Root(h2, 1, 2);
  EXPECT_NEAR(rh, h2.Lst(1, 2 * (1 - rh)), 1e-12);
  EXPECT_GT(rh, 0.5);
  EXPECT_EQ(*Gm1Root(erlang2, 0, 2), 0.0);
  EXPECT_FALSE(Gm1Root(erlang2, 2, 2).ok());
}

// The laws' transforms and their inverses in the rate.
TEST(Gm1Test, ArrivalLawsAndTheirInverse) {
  for (const char* name : {"exp", "det", "erlang:3", "h2:2.5"}) {
    const ArrivalLaw law = *ParseArrivalLaw(name);
    EXPECT_EQ(law.ToString(), name);
    EXPECT_NEAR(law.Lst(1, 0), 1, 1e-15) << name;
    for (double rate : {0.3, 1.0, 7.0}) {
      const double v = law.Lst(rate, 1.7);
      EXPECT_NEAR(law.RateForLst(1.7, v), rate, 1e-9 * rate) << name;
    }
  }
  EXPECT_NEAR(ParseArrivalLaw("erlang:2")->Lst(1, 2), 0.25, 1e-15);  // (2 / (2 + 2))^2
  for (const char* bad : {"", "erlang", "erlang:0", "erlang:x", "h2:1", "h2:-3", "pareto:2"}) {
    EXPECT_FALSE(ParseArrivalLaw(bad).ok()) << bad;
  }
}

// Lemma 7's equilibrium mu_i (1 - r0_i) = alpha by Algorithm 1. Erlang-2 arrivals: node i's
// rate at alpha solves (2 lambda_i / (2 lambda_i + alpha))^2 = 1 - alpha / mu_i. mu = {2, 25/6},
// alpha = 3/2: node 1 1 - 3/4 = 1/4 = (1/2)^2, lambda_1 = alpha (1/2) / (2 (1/2)) = 3/4; node 2
// 1 - 0.36 = 0.64 = 0.8^2, lambda_2 = 1.5 * 0.8 / (2 * 0.2) = 3. So lambda = 3.75 splits {3/4, 3}.
TEST(Gm1Test, Algorithm1ByHand) {
  const std::vector<double> mu = {2, 25.0 / 6};
  Result<Gm1Solution> s = Gm1Rates(mu, 3.75, *ParseArrivalLaw("erlang:2"));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_NEAR(s->alpha, 1.5, 1e-10);
  ASSERT_EQ(s->lambda.size(), 2u);
  EXPECT_NEAR(s->lambda[0], 0.75, 1e-9);
  EXPECT_NEAR(s->lambda[1], 3, 1e-9);
  EXPECT_FALSE(s->safeguarded);
  for (size_t i = 0; i < mu.size(); ++i) {
    EXPECT_NEAR(*Gm1ResponseRate(*ParseArrivalLaw("erlang:2"), s->lambda[i], mu[i]), 1.5, 1e-8) << i;
  }
}

// With Poisson arrivals Lemma 7 is Lemma 6: lambda_i = mu_i - alpha, S-EP (where Eq. 24 holds).
// Where it fails only a negative rate would balance, which no arrival law has: refused.
TEST(Gm1Test, PoissonArrivalsGiveTheStochasticEquilibrium) {
  const std::vector<double> mu = {2, 3, 4};
  Result<Gm1Solution> s = Gm1Rates(mu, 6, *ParseArrivalLaw("exp"));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(s->lambda[i], (*SepRates(mu, 6))[i], 1e-9);
  EXPECT_NEAR(s->alpha, 1, 1e-9);
  Result<Gm1Solution> bad = Gm1Rates(std::vector<double>{1, 1, 2, 4}, 3, *ParseArrivalLaw("exp"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("Eq. 24"), std::string::npos) << bad.status().ToString();
  EXPECT_FALSE(Gm1Rates(mu, 9, *ParseArrivalLaw("exp")).ok());  // overloaded
}

// Lemma 12 (Eq. 47) with the interpolation's V_n: V_1 = 1, V_2 = 2 - (2/4 + 1/8) = 11/8,
// V_3 = 3 - 3 (5/8) + (3/9 + 3/27 + 2/81) = 1033/648. f(1) is the M/M/1 mean 1 / (mu - lambda);
// f(2) is Nelson and Tantawi's (12 - rho)/8 / (mu - lambda/2), rho = lambda / (2 mu):
// mu = 1, lambda = 1: (11.5/8) / 0.5 = 2.875. The variant lemma12-printed: f(1) = (1 + (lambda
// - 1) lambda/mu) / (mu - lambda): mu = 2, lambda = 1: (1 + 0)/1 = 1 (vs the M/M/1 mean 1);
// mu = 1, lambda = 0.5: (1 - 0.25)/0.5 = 1.5 (vs 2).
TEST(MstMappersTest, Lemma12ByHand) {
  EXPECT_NEAR(MakowskiVarmaV(1), 1, 1e-10);
  EXPECT_NEAR(MakowskiVarmaV(2), 11.0 / 8, 1e-10);
  EXPECT_NEAR(MakowskiVarmaV(3), 1033.0 / 648, 1e-10);
  EXPECT_NEAR(*HomogeneousMst(KneeModel::kLemma12, 1, 2, 1.5), 2, 1e-10);
  EXPECT_NEAR(*HomogeneousMst(KneeModel::kLemma12, 2, 1, 1), 2.875, 1e-10);
  EXPECT_NEAR(*HomogeneousMst(KneeModel::kMm1, 2, 1, 1), 3, 1e-14);  // H_2 / 0.5
  EXPECT_NEAR(*HomogeneousMst(KneeModel::kLemma12Printed, 1, 1, 0.5), 1.5, 1e-12);
  // V_n (the heavy-traffic limit) grows with n but stays below H_n (the nodes share their
  // arrivals); checked against the alternating sum where that is still accurate.
  for (int n = 4; n <= 12; ++n) {
    long double v = 0;
    for (int i = 1; i <= n; ++i) {
      long double c = 1, inner = 0, fact = 1;
      for (int k = 1; k <= i; ++k) c = c * (n - i + k) / k;  // C(n, i)
      long double cij = 1;
      for (int j = 1; j <= i; ++j) {
        cij = cij * (i - j + 1) / j;  // C(i, j)
        inner += cij * fact / std::pow(static_cast<long double>(i), j + 1);
        fact *= j;  // (j - 1)! for the next j
      }
      v += (i % 2 ? 1 : -1) * c * inner;
    }
    EXPECT_NEAR(MakowskiVarmaV(n), static_cast<double>(v), 1e-9) << n;
    EXPECT_LT(MakowskiVarmaV(n), HarmonicNumber(n)) << n;
    EXPECT_GT(MakowskiVarmaV(n), MakowskiVarmaV(n - 1)) << n;
  }
  Result<KneeResult> knee = OptimalMapperCount(1, 2, 10'000'000, KneeModel::kLemma12);
  ASSERT_TRUE(knee.ok()) << knee.status().ToString();
  for (int n = 3; n <= 400; ++n) EXPECT_GE(*HomogeneousMst(KneeModel::kLemma12, n, 1, 2), knee->mst) << n;
  EXPECT_FALSE(HomogeneousMst(KneeModel::kLemma12Printed, kMaxPrintedN + 1, 1, 0.5).ok());
  EXPECT_EQ(*ParseKneeModel("lemma12"), KneeModel::kLemma12);
  EXPECT_FALSE(ParseKneeModel("lemma11").ok());
}

}  // namespace
}  // namespace mr::model
