// The straggler draw (common/straggler.h): the inversion by hand, determinism per
// (seed, job, task, attempt), and the empirical law of many draws against the DTD's.
#include "common/straggler.h"

#include <gtest/gtest.h>

#include <cmath>

namespace mr {
namespace {

StragglerSpec Spec(StragglerTail tail, double offset, double rate, uint64_t seed = 7) {
  StragglerSpec s;
  s.enabled = true;
  s.tail = tail;
  s.offset = offset;
  s.rate = rate;
  s.seed = seed;
  return s;
}

TEST(StragglerTest, TailQuantilesWorkedByHand) {
  // exp, Δ = 0.5: P(S > s) = e^{-0.5 s}; at u = e^{-1} the tail is s = 1/0.5 = 2.
  StragglerSpec e = Spec(StragglerTail::kExp, 1.0, 0.5);
  EXPECT_NEAR(StragglerTailQuantile(e, std::exp(-1.0)), 2.0, 1e-12);
  EXPECT_NEAR(StragglerTailQuantile(e, 1.0), 0.0, 1e-12);  // u = 1: the offset alone
  // pareto, Δ = 0.5, α = 3: σ = (α − 1)/Δ = 4, P(S > s) = (1 + s/4)^{-3};
  // at u = 1/8: (1 + s/4) = 8^{1/3} = 2, so s = 4.
  StragglerSpec p = Spec(StragglerTail::kPareto, 1.0, 0.5);
  p.shape = 3;
  EXPECT_NEAR(StragglerTailQuantile(p, 0.125), 4.0, 1e-12);
  // α = 2, Δ = 1: σ = 1; at u = 1/4: (1 + s) = 4^{1/2} = 2, s = 1.
  p.shape = 2;
  p.rate = 1;
  EXPECT_NEAR(StragglerTailQuantile(p, 0.25), 1.0, 1e-12);
}

TEST(StragglerTest, DisabledInjectsNothing) {
  StragglerSpec off;
  EXPECT_EQ(StragglerDelay(off, 1, 0, 1), 0.0);
  EXPECT_EQ(off.Mean(), 0.0);
  EXPECT_EQ(off.ToString(), "off");
}

TEST(StragglerTest, DeterministicPerSeedAndAttempt) {
  const StragglerSpec a = Spec(StragglerTail::kExp, 0.5, 2.0, 42);
  const double d = StragglerDelay(a, 3, 4, 1);
  EXPECT_EQ(StragglerDelay(a, 3, 4, 1), d) << "same attempt, same draw";
  EXPECT_GE(d, 0.5) << "never below the offset";
  // Each coordinate of the identity changes the draw: the retry or backup of a task, the
  // next task, the next job, another seed.
  EXPECT_NE(StragglerDelay(a, 3, 4, 2), d);
  EXPECT_NE(StragglerDelay(a, 3, 5, 1), d);
  EXPECT_NE(StragglerDelay(a, 4, 4, 1), d);
  EXPECT_NE(StragglerDelay(Spec(StragglerTail::kExp, 0.5, 2.0, 43), 3, 4, 1), d);
  // (task, attempt) and (attempt, task) are different identities.
  EXPECT_NE(StragglerDelay(a, 3, 1, 4), d);
  // The pareto draw inverts the same uniform: same seed, a different tail, same rank.
  StragglerSpec p = a;
  p.tail = StragglerTail::kPareto;
  const double u = std::exp(-(d - 0.5) * 2.0);  // the uniform the exp draw used
  EXPECT_NEAR(StragglerDelay(p, 3, 4, 1), 0.5 + StragglerTailQuantile(p, u), 1e-9);
}

// Many draws: the sample mean is within a few standard errors of T + 1/Δ, and the
// empirical CDF at T + 1/Δ matches the law's.
TEST(StragglerTest, EmpiricalMeanMatchesTheDtdMean) {
  constexpr int kDraws = 200000;
  // exp, T = 1, Δ = 0.5: mean 3, sd 1/Δ = 2, so the standard error is 2/√200000 ≈ 0.0045;
  // P(X ≤ T + 1/Δ) = 1 − e^{-1} ≈ 0.6321.
  const StragglerSpec e = Spec(StragglerTail::kExp, 1.0, 0.5, 11);
  double sum = 0, below = 0, min = 1e9;
  for (uint32_t i = 0; i < kDraws; ++i) {
    const double x = StragglerDelay(e, 1 + i / 1000, i % 1000, 1);
    sum += x;
    below += x <= 3.0;
    min = std::min(min, x);
  }
  EXPECT_EQ(e.Mean(), 3.0);
  EXPECT_NEAR(sum / kDraws, 3.0, 0.03);  // ~7 standard errors
  EXPECT_NEAR(below / kDraws, 1 - std::exp(-1.0), 0.005);
  EXPECT_GE(min, 1.0);

  // pareto, T = 1, Δ = 0.5, α = 3: the same mean 3; the tail's variance is
  // σ²α/((α−1)²(α−2)) = 16·3/4 = 12 (sd ≈ 3.46, standard error ≈ 0.0077);
  // P(X ≤ T + 1/Δ) = 1 − (1 + 2/4)^{-3} = 1 − 8/27 ≈ 0.7037.
  StragglerSpec p = Spec(StragglerTail::kPareto, 1.0, 0.5, 11);
  p.shape = 3;
  sum = below = 0;
  for (uint32_t i = 0; i < kDraws; ++i) {
    const double x = StragglerDelay(p, 1 + i / 1000, i % 1000, 1);
    sum += x;
    below += x <= 3.0;
  }
  EXPECT_EQ(p.Mean(), 3.0);
  EXPECT_NEAR(sum / kDraws, 3.0, 0.08);
  EXPECT_NEAR(below / kDraws, 1 - 8.0 / 27.0, 0.005);
}

TEST(StragglerTest, ValidateNamesTheFlag) {
  StragglerSpec s = Spec(StragglerTail::kExp, -1, 1);
  EXPECT_NE(s.Validate().message().find("--straggler-offset"), std::string::npos);
  s = Spec(StragglerTail::kExp, 0, 0);
  EXPECT_NE(s.Validate().message().find("--straggler-rate"), std::string::npos);
  s = Spec(StragglerTail::kExp, 0, NAN);
  EXPECT_FALSE(s.Validate().ok());
  s = Spec(StragglerTail::kPareto, 0, 1);
  s.shape = 1;
  EXPECT_NE(s.Validate().message().find("--straggler-shape"), std::string::npos);
  s.shape = 1.5;
  EXPECT_TRUE(s.Validate().ok());
  s = Spec(StragglerTail::kExp, 0, 1);
  s.shape = 0.5;  // the shape is the pareto tail's only
  EXPECT_TRUE(s.Validate().ok());
  EXPECT_EQ(ParseStragglerTail("pareto").value(), StragglerTail::kPareto);
  EXPECT_EQ(ParseStragglerTail("exp").value(), StragglerTail::kExp);
  EXPECT_NE(ParseStragglerTail("lognormal").status().message().find("--straggler-tail must be exp or pareto"),
            std::string::npos);
}

}  // namespace
}  // namespace mr
