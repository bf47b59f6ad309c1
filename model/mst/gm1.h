// G/M/1 mapper nodes of "Modeling and Optimization of Straggling Mappers" (Lemma 7,
// Algorithm 1): node i receives tasks with i.i.d. inter-arrival times of CDF A_i (mean
// 1/lambda_i) and serves them in Exp(mu_i). Its response time is Exp(mu_i (1 - r0_i)), r0_i the
// unique root in (0, 1) of z = A_i*(mu_i (1 - z)), A_i* the Laplace-Stieltjes transform of A_i.
// The equilibrium of Lemma 7 makes every node's response law equal: mu_i (1 - r0_i) = alpha
// for all i; since then r0_i = A_i*(alpha), node i's rate is the lambda_i with
// A_i*(alpha; lambda_i) = 1 - alpha / mu_i, and Algorithm 1 finds alpha by the secant method on
// f(alpha) = lambda - sum_i lambda_i(alpha) (Eq. 27). With exponential inter-arrival times this
// is S-EP (lambda_i = mu_i - alpha). Pure functions; thread-compatible.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr::model {

// An inter-arrival law of a given rate, by its shape: exp (Poisson arrivals, SCV 1), det
// (constant gaps, SCV 0), erlang:K (SCV 1/K), h2:C2 (balanced-means two-phase
// hyperexponential, SCV C2 > 1).
struct ArrivalLaw {
  enum class Kind { kExp, kDet, kErlang, kH2 };
  Kind kind = Kind::kExp;
  int k = 1;       // kErlang: phases, >= 1
  double scv = 1;  // kH2: > 1
  // A*(s) of the law with rate `rate` (> 0), s >= 0: in (0, 1], increasing in the rate.
  double Lst(double rate, double s) const;
  // The rate with A*(s) = v, for s > 0 and v in (0, 1).
  double RateForLst(double s, double v) const;
  std::string ToString() const;
};
// "exp", "det", "erlang:K" (K >= 1 whole) or "h2:C2" (C2 > 1); InvalidArgument otherwise.
Result<ArrivalLaw> ParseArrivalLaw(std::string_view text);

// r0 of a G/M/1 node (the root in (0, 1) of z = A*(mu (1 - z))), by bisection. InvalidArgument
// unless mu > 0 and 0 <= lambda < mu; lambda = 0 gives 0.
Result<double> Gm1Root(const ArrivalLaw& law, double lambda, double mu);
// The rate of a G/M/1 node's exponential response time, mu (1 - r0). Errors as Gm1Root.
Result<double> Gm1ResponseRate(const ArrivalLaw& law, double lambda, double mu);

struct Gm1Solution {
  std::vector<double> lambda;  // per node
  double alpha = 0;            // the common response rate mu_i (1 - r0_i)
  int iterations = 0;          // secant steps of Algorithm 1
  bool safeguarded = false;    // the secant left (0, min mu) or stalled: bisection finished it
};
// Algorithm 1: the secant from alpha_0 = mu_min / 2 and alpha_1 = mu_1 (1 - r0_1(lambda / N))
// until |f(alpha)| <= tolerance * lambda; an iterate outside (0, mu_min), or no convergence
// in 100 steps, hands over to bisection on (0, mu_min) (said in `safeguarded`).
// InvalidArgument for bad input (as ValidatePlacementInput) or when the equilibrium would
// need a negative rate for some node (the law's analogue of the paper's Eq. 24 fails; only
// exp arrivals extend below 0, and those are S-EP: `sep`).
Result<Gm1Solution> Gm1Rates(std::span<const double> mu, double lambda, const ArrivalLaw& law,
                             double tolerance = 1e-12);

}  // namespace mr::model
