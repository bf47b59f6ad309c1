// Fitting a sample of times (a node's measured map service times) to the delayed-tail
// distribution of "Modeling and Optimization of Straggling Mappers" with an exponential tail,
// X = T + Exp(Delta) (dtd.h), and saying how well it fits. The estimator is the unbiased
// (minimum-variance) one of the shifted exponential, built on the sample minimum:
//   tail mean 1/Delta = n (mean - min) / (n - 1),   T = min - (1/Delta) / n,
// with T clamped at 0 (the tail mean is then mean - 0). Fit quality is the Kolmogorov-Smirnov
// distance between the sample's empirical CDF and the fitted CDF. Also the sample's squared
// coefficient of variation and its deterministic share T / mean (1 for a constant time, 0 for
// a pure exponential). Pure functions; thread-compatible.
#pragma once

#include <span>

#include "common/status.h"
#include "model/mst/dtd.h"

namespace mr::model {

struct DtdFit {
  int n = 0;             // sample size
  double mean = 0;       // sample mean
  double scv = 0;        // sample variance (n - 1) / mean^2
  double offset = 0;     // T
  double tail_mean = 0;  // 1 / Delta; 0 when every value is equal
  double share = 0;      // T / mean, the deterministic share of the mean
  double ks = 0;         // sup |empirical CDF - fitted CDF|; 0 for a constant sample
  // The fitted law. A constant sample (tail_mean 0) gets the rate 10^12 / mean: a step
  // within 10^-12 of the mean.
  Dtd law;
};

// InvalidArgument for fewer than 2 values, a negative or non-finite value, or a mean of 0.
Result<DtdFit> FitDelayedExp(std::span<const double> sample);

// sup over t of |empirical CDF of `sample` - law.Cdf(t)|, checked on both sides of every
// sample point. REQUIRES: law valid, sample non-empty.
double KsDistance(std::span<const double> sample, const Dtd& law);

}  // namespace mr::model
