#include "model/mst/dtd_fit.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mr::model {

double KsDistance(std::span<const double> sample, const Dtd& law) {
  std::vector<double> x(sample.begin(), sample.end());
  std::sort(x.begin(), x.end());
  const double n = static_cast<double>(x.size());
  double d = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double f = law.Cdf(x[i]);
    // The empirical CDF jumps from i/n to (i+1)/n at x[i] (ties: the largest index wins,
    // which the max over both sides covers).
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d;
}

Result<DtdFit> FitDelayedExp(std::span<const double> sample) {
  if (sample.size() < 2) return Status::InvalidArgument("a DTD fit needs at least 2 values");
  double sum = 0, lo = sample[0];
  for (double v : sample) {
    if (!std::isfinite(v) || v < 0)
      return Status::InvalidArgument("a DTD fit needs finite values >= 0");
    sum += v;
    lo = std::min(lo, v);
  }
  const double n = static_cast<double>(sample.size());
  DtdFit fit;
  fit.n = static_cast<int>(sample.size());
  fit.mean = sum / n;
  if (!(fit.mean > 0)) return Status::InvalidArgument("a DTD fit needs a positive mean");
  double ss = 0;
  for (double v : sample) ss += (v - fit.mean) * (v - fit.mean);
  fit.scv = ss / (n - 1) / (fit.mean * fit.mean);
  fit.tail_mean = n * (fit.mean - lo) / (n - 1);
  fit.offset = lo - fit.tail_mean / n;
  if (fit.offset < 0) {
    fit.offset = 0;
    fit.tail_mean = fit.mean;
  }
  fit.share = fit.offset / fit.mean;
  fit.law = Dtd{.offset = fit.offset, .rate = 1.0 / std::max(fit.tail_mean, 1e-12 * fit.mean)};
  // A constant sample is its own fit (a point mass); KsDistance would see the step just after it.
  fit.ks = fit.tail_mean > 0 ? KsDistance(sample, fit.law) : 0;
  return fit;
}

}  // namespace mr::model
