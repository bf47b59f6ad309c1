// Numerical integration for the model: the mean of a non-negative random variable from its
// survival function, by adaptive Gauss-Kronrod quadrature on [0, inf). Used by mst.h for
// E[max_i R_i] when no closed form applies. Pure; thread-compatible.
#pragma once

#include <functional>
#include <span>

#include "common/status.h"

namespace mr::model {

struct QuadratureOptions {
  // Stop when the estimated absolute error is below max(abs_tol, rel_tol * |integral|).
  double rel_tol = 1e-10;
  double abs_tol = 1e-13;
  int max_intervals = 5000;  // FailedPrecondition if the tolerance is not met by then
  // k >= 1 of the tail map below. 1 suits tails that decay faster than t^-2; a tail like
  // t^-a with 1 < a <= 2 needs k >= 1/(a - 1) for a bounded integrand (MstNumeric takes
  // max(1, 2/(a - 1)) from the heaviest pareto tail).
  double tail_power = 1;
};
// integral over t >= 0 of survival(t) dt, where survival(t) = P(S > t) for a non-negative S
// (non-increasing, in [0, 1]). Adaptive Gauss-Kronrod (7/15 points) over [0, b_1], [b_1, b_2],
// ..., [b_k, inf), the b's being `breakpoints` (points where survival has a kink: a DTD's
// offset), the last piece mapped onto [0, 1) by t = b_k + scale ((1 - x)^-k - 1), k =
// options.tail_power (k = 1: t = b_k + scale x / (1 - x)). `scale` > 0 is a typical length of
// the tail (its mean, say). Cost: 15 evaluations per interval.
Result<double> IntegrateSurvival(const std::function<double(double)>& survival,
                                 std::span<const double> breakpoints, double scale,
                                 const QuadratureOptions& options = {});

}  // namespace mr::model
