#include "model/mst/gm1.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "common/units.h"
#include "model/mst/mst_placement.h"

namespace mr::model {
namespace {

// The x in (lo, hi) with f(x) = target for a continuous increasing f, f(lo) < target < f(hi).
template <typename F>
double Bisect(F f, double lo, double hi, double target) {
  for (int i = 0; i < 2000; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (f(mid) < target ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// h2's branch probabilities for a balanced-means hyperexponential of SCV c2 (> 1).
double H2P(double c2) { return 0.5 * (1.0 + std::sqrt((c2 - 1.0) / (c2 + 1.0))); }

}  // namespace

double ArrivalLaw::Lst(double rate, double s) const {
  switch (kind) {
    case Kind::kExp: return rate / (rate + s);
    case Kind::kDet: return std::exp(-s / rate);
    case Kind::kErlang: return std::pow(k * rate / (k * rate + s), k);
    case Kind::kH2: {
      const double p = H2P(scv), q = 1.0 - p;
      return p * (2 * p * rate) / (2 * p * rate + s) + q * (2 * q * rate) / (2 * q * rate + s);
    }
  }
  return 0;
}

double ArrivalLaw::RateForLst(double s, double v) const {
  switch (kind) {
    case Kind::kExp: return s * v / (1.0 - v);
    case Kind::kDet: return -s / std::log(v);
    case Kind::kErlang: {
      const double w = std::pow(v, 1.0 / k);
      return s * w / (k * (1.0 - w));
    }
    case Kind::kH2: {
      // No closed form: Lst is increasing in the rate, from 0 to 1; bisect on log(rate)
      // from a bracket around the exponential's answer.
      double lo = s * v / (1.0 - v), hi = lo;
      while (Lst(lo, s) > v) lo *= 0.5;
      while (Lst(hi, s) < v) hi *= 2.0;
      return std::exp(Bisect([&](double x) { return Lst(std::exp(x), s); }, std::log(lo), std::log(hi), v));
    }
  }
  return 0;
}

std::string ArrivalLaw::ToString() const {
  switch (kind) {
    case Kind::kExp: return "exp";
    case Kind::kDet: return "det";
    case Kind::kErlang: return "erlang:" + std::to_string(k);
    case Kind::kH2: return "h2:" + FormatNumber(scv);
  }
  return "?";
}

Result<ArrivalLaw> ParseArrivalLaw(std::string_view text) {
  const Status bad = Status::InvalidArgument("arrival law '" + std::string(text) +
                                             "': expected exp, det, erlang:K (K >= 1) or h2:C2 (C2 > 1)");
  ArrivalLaw law;
  if (text == "exp") return law;
  if (text == "det") {
    law.kind = ArrivalLaw::Kind::kDet;
    return law;
  }
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) return bad;
  const std::string_view name = text.substr(0, colon), arg = text.substr(colon + 1);
  if (name == "erlang") {
    int k = 0;
    auto [p, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), k);
    if (ec != std::errc() || p != arg.data() + arg.size() || k < 1 || k > 1000) return bad;
    law.kind = ArrivalLaw::Kind::kErlang;
    law.k = k;
    return law;
  }
  if (name == "h2") {
    double c2 = 0;
    auto [p, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), c2);
    if (ec != std::errc() || p != arg.data() + arg.size() || !(c2 > 1) || !std::isfinite(c2)) return bad;
    law.kind = ArrivalLaw::Kind::kH2;
    law.scv = c2;
    return law;
  }
  return bad;
}

Result<double> Gm1Root(const ArrivalLaw& law, double lambda, double mu) {
  if (!(std::isfinite(mu) && mu > 0)) return Status::InvalidArgument("service rate mu " + FormatNumber(mu) + " must be > 0");
  if (!(std::isfinite(lambda) && lambda >= 0 && lambda < mu)) {
    return Status::InvalidArgument("G/M/1 node needs 0 <= lambda < mu, got lambda " + FormatNumber(lambda) + ", mu " +
                                   FormatNumber(mu));
  }
  if (lambda == 0) return 0.0;
  // h(z) = A*(mu (1 - z)) - z: h(0) > 0, h(1) = 0 and h < 0 just below 1 (h'(1) = mu/lambda
  // - 1 > 0), so the root r0 lies where h first changes sign.
  auto h = [&](double z) { return law.Lst(lambda, mu * (1.0 - z)) - z; };
  double top = 0.5;
  while (h(top) >= 0) {
    top = 0.5 * (1.0 + top);
    if (top >= 1.0) return Status::Internal("G/M/1: no root below 1 (lambda too close to mu)");
  }
  // -h is increasing across the root on [0, top].
  return Bisect([&](double z) { return -h(z); }, 0.0, top, 0.0);
}

Result<double> Gm1ResponseRate(const ArrivalLaw& law, double lambda, double mu) {
  MR_ASSIGN_OR_RETURN(double r0, Gm1Root(law, lambda, mu));
  return mu * (1.0 - r0);
}

Result<Gm1Solution> Gm1Rates(std::span<const double> mu, double lambda, const ArrivalLaw& law, double tolerance) {
  MR_RETURN_IF_ERROR(ValidatePlacementInput(mu, lambda));
  const double mu_min = *std::min_element(mu.begin(), mu.end());
  // lambda_i(alpha): A_i*(alpha; lambda_i) = 1 - alpha / mu_i, decreasing in alpha on (0, mu_min).
  auto rates = [&](double alpha) {
    std::vector<double> out;
    for (double m : mu) out.push_back(alpha >= m ? 0.0 : law.RateForLst(alpha, 1.0 - alpha / m));
    return out;
  };
  auto f = [&](double alpha) {
    const std::vector<double> r = rates(alpha);
    return lambda - std::accumulate(r.begin(), r.end(), 0.0);
  };
  // At alpha -> mu_min the slowest node's rate reaches 0; if the others still take more than
  // lambda there, only a negative rate on it would balance: no equilibrium.
  if (f(mu_min * (1 - 1e-12)) < 0) {
    return Status::InvalidArgument("no G/M/1 equilibrium with every node's rate >= 0 at lambda " + FormatNumber(lambda) +
                                   " (the analogue of the paper's Eq. 24 fails)");
  }
  Gm1Solution s;
  double a0 = 0.5 * mu_min, a1 = 0.9 * mu_min;
  if (lambda / static_cast<double>(mu.size()) < mu[0]) {
    MR_ASSIGN_OR_RETURN(double r0, Gm1Root(law, lambda / static_cast<double>(mu.size()), mu[0]));
    a1 = mu[0] * (1.0 - r0);
  }
  double f0 = f(a0), f1 = f(a1);
  bool done = false;
  for (s.iterations = 0; s.iterations < 100; ++s.iterations) {
    if (std::fabs(f1) <= tolerance * lambda) {
      done = true;
      break;
    }
    if (f1 == f0) break;
    const double a2 = a1 - f1 * (a1 - a0) / (f1 - f0);
    if (!(a2 > 0 && a2 < mu_min)) break;
    a0 = a1, f0 = f1;
    a1 = a2, f1 = f(a2);
  }
  if (!done) {
    s.safeguarded = true;
    // f increasing in alpha: from lambda - sum mu < 0 near 0 to >= 0 at mu_min.
    a1 = Bisect(f, 0.0, mu_min * (1 - 1e-12), 0.0);
  }
  s.alpha = a1;
  s.lambda = rates(a1);
  const double total = std::accumulate(s.lambda.begin(), s.lambda.end(), 0.0);
  for (double& x : s.lambda) x *= lambda / total;
  return s;
}

}  // namespace mr::model
