// Fitting a sample to a delayed-tail distribution (model/dtd_fit.h): a four-value sample by
// hand, the clamp at offset 0, a constant sample, recovery of a seeded DTD sample's
// parameters, a sample that is not a DTD, and bad input.
#include "model/mst/dtd_fit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/rng.h"

namespace mr::model {
namespace {

TEST(DtdFitTest, FourValuesByHand) {
  // n = 4, mean 3, min 1: tail mean 4 (3 - 1) / 3 = 8/3, offset 1 - (8/3) / 4 = 1/3.
  // Deviations -2, -1, 0, 3: variance 14/3, scv 14/27. Share (1/3) / 3 = 1/9.
  const std::vector<double> x = {6, 1, 3, 2};
  auto fit = FitDelayedExp(x);
  ASSERT_TRUE(fit.ok()) << fit.status().ToString();
  EXPECT_EQ(fit->n, 4);
  EXPECT_DOUBLE_EQ(fit->mean, 3);
  EXPECT_DOUBLE_EQ(fit->tail_mean, 8.0 / 3);
  EXPECT_DOUBLE_EQ(fit->offset, 1.0 / 3);
  EXPECT_DOUBLE_EQ(fit->law.rate, 3.0 / 8);
  EXPECT_DOUBLE_EQ(fit->scv, 14.0 / 27);
  EXPECT_DOUBLE_EQ(fit->share, 1.0 / 9);
  // Fitted CDF at the points: 1 - e^{-(3/8)(x - 1/3)} = 1 - e^{-1/4}, 1 - e^{-5/8}, 1 - e^{-1},
  // 1 - e^{-17/8} = .2212, .4647, .6321, .8806 against the steps 0|.25, .25|.5, .5|.75, .75|1:
  // the largest gap is at x = 1, from below: 1 - e^{-1/4} = 0.2212.
  EXPECT_NEAR(fit->ks, 1 - std::exp(-0.25), 1e-12);
}

TEST(DtdFitTest, OffsetClampedAtZero) {
  // min 0.1, mean 5.1: tail mean 3 (5.0) / 2 = 7.5 gives offset 0.1 - 2.5 < 0, so the offset
  // is 0 and the tail carries the whole mean.
  const std::vector<double> x = {0.1, 5.2, 10};
  auto fit = FitDelayedExp(x);
  ASSERT_TRUE(fit.ok());
  EXPECT_DOUBLE_EQ(fit->offset, 0);
  EXPECT_NEAR(fit->tail_mean, 5.1, 1e-12);
  EXPECT_DOUBLE_EQ(fit->share, 0);
}

TEST(DtdFitTest, ConstantSampleIsAllOffset) {
  const std::vector<double> x = {2, 2, 2};
  auto fit = FitDelayedExp(x);
  ASSERT_TRUE(fit.ok());
  EXPECT_DOUBLE_EQ(fit->offset, 2);
  EXPECT_DOUBLE_EQ(fit->tail_mean, 0);
  EXPECT_DOUBLE_EQ(fit->share, 1);
  EXPECT_DOUBLE_EQ(fit->scv, 0);
  EXPECT_DOUBLE_EQ(fit->ks, 0);
  EXPECT_TRUE(fit->law.Validate().ok());
  EXPECT_NEAR(fit->law.Mean(), 2, 1e-9);
}

TEST(DtdFitTest, RecoversASeededDtd) {
  // T = 2, tail mean 2 (Delta = 0.5): mean 4, share 0.5, scv 4 / 16 = 0.25. With n = 20000
  // the offset's error is about tail/n = 1e-4 and the tail mean's s.d. 2/sqrt(n) = 0.014:
  // tolerances 0.005 and 3 %.
  const Dtd truth{.offset = 2, .rate = 0.5};
  Rng rng(20261124);
  std::vector<double> x(20000);
  for (double& v : x) v = truth.Sample(rng);
  auto fit = FitDelayedExp(x);
  ASSERT_TRUE(fit.ok());
  EXPECT_NEAR(fit->offset, 2, 0.005);
  EXPECT_NEAR(fit->tail_mean, 2, 0.06);
  EXPECT_NEAR(fit->share, 0.5, 0.01);
  EXPECT_NEAR(fit->scv, 0.25, 0.02);
  EXPECT_LT(fit->ks, 1.36 / std::sqrt(20000.0));  // below the 5 % critical value
}

TEST(DtdFitTest, UniformSampleFitsBadly) {
  // U(0, 1) is no DTD: the fit is about T = 0, tail 0.5, whose CDF 1 - e^{-2t} exceeds t by
  // up to 0.15 (near t = 0.35); the 5 % critical value at n = 2000 is 0.03.
  Rng rng(7);
  std::vector<double> x(2000);
  for (double& v : x) v = rng.Uniform();
  auto fit = FitDelayedExp(x);
  ASSERT_TRUE(fit.ok());
  EXPECT_GT(fit->ks, 0.12);
  EXPECT_NEAR(fit->scv, 1.0 / 3, 0.05);  // variance 1/12 over mean^2 1/4
}

TEST(DtdFitTest, KsDistanceOfAnExactQuantileSample) {
  // The quantiles at (i + 0.5) / n of Exp(1): every step misses the CDF by exactly 1 / (2n).
  std::vector<double> x;
  for (int i = 0; i < 10; ++i) x.push_back(-std::log(1 - (i + 0.5) / 10));
  EXPECT_NEAR(KsDistance(x, Dtd{.offset = 0, .rate = 1}), 0.05, 1e-12);
}

TEST(DtdFitTest, BadInput) {
  EXPECT_FALSE(FitDelayedExp(std::vector<double>{1}).ok());
  EXPECT_FALSE(FitDelayedExp(std::vector<double>{1, -1}).ok());
  EXPECT_FALSE(FitDelayedExp(std::vector<double>{0, 0}).ok());
  EXPECT_FALSE(FitDelayedExp(std::vector<double>{1, NAN}).ok());
}

}  // namespace
}  // namespace mr::model
