#include "scheduler/stages/mst_placement.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "common/units.h"

namespace mr::model {
namespace {

double Sum(std::span<const double> v) { return std::accumulate(v.begin(), v.end(), 0.0); }

double ServiceScv(const MepParams& p, size_t i) {
  if (p.service_scv.empty()) return 1.0;
  return p.service_scv.size() == 1 ? p.service_scv[0] : p.service_scv[i];
}

// (ca2 + cs2) / 2 of Kingman's formula; M/G/1 has Poisson arrivals, ca2 = 1.
double KingmanFactor(const MepParams& p, size_t i) {
  const double ca2 = p.model == MeanResponseModel::kMg1 ? 1.0 : p.arrival_scv;
  return 0.5 * (ca2 + ServiceScv(p, i));
}

// The lambda_i at which node i's mean response is alpha. clamp (or mg1/gg1): 0 if the node
// is slower than alpha even idle; else dtd's root as the paper's Eq. 40 gives it, negative
// for such a node.
double RateForMeanResponse(const MepParams& p, double mu, size_t i, double alpha, bool clamp) {
  if (p.model == MeanResponseModel::kDtd) {
    // D x / mu + 1 / (mu - x) = alpha  <=>  D x^2 - (D + alpha) mu x + alpha mu^2 - mu = 0;
    // the smaller root, written so that D = 0 gives mu - 1/alpha without cancellation.
    const double c = mu * (alpha * mu - 1.0);
    if (c <= 0 && clamp) return 0.0;
    const double root = std::sqrt(mu * (alpha - p.d) * mu * (alpha - p.d) + 4.0 * p.d * mu);
    return 2.0 * c / ((p.d + alpha) * mu + root);
  }
  // 1/mu + k x / (mu (mu - x)) = alpha  <=>  x = w mu^2 / (k + w mu), w = alpha - 1/mu.
  const double w = alpha - 1.0 / mu;
  if (w <= 0) return 0.0;
  return w * mu * mu / (KingmanFactor(p, i) + w * mu);
}

// The x with f(x) = target for a continuous non-decreasing f on (lo, hi) with f(lo) < target
// <= f(hi), by bisection to the last bit.
template <typename F>
double Bisect(F f, double lo, double hi, double target) {
  for (int i = 0; i < 2000; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (f(mid) < target ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace

Result<Placement> ParsePlacement(std::string_view name) {
  if (name == "fair" || name == "even") return Placement::kFair;
  for (Placement p : {Placement::kDep, Placement::kSep, Placement::kSepClamp, Placement::kMep, Placement::kMepClamp,
                      Placement::kDmep, Placement::kDmepClamp}) {
    if (name == PlacementName(p)) return p;
  }
  return Status::InvalidArgument("unknown placement '" + std::string(name) +
                                 "': expected fair, dep, sep, sep-clamp, mep, mep-clamp, dmep or dmep-clamp");
}

std::string_view PlacementName(Placement p) {
  switch (p) {
    case Placement::kFair: return "fair";
    case Placement::kDep: return "dep";
    case Placement::kSep: return "sep";
    case Placement::kSepClamp: return "sep-clamp";
    case Placement::kMep: return "mep";
    case Placement::kMepClamp: return "mep-clamp";
    case Placement::kDmep: return "dmep";
    case Placement::kDmepClamp: return "dmep-clamp";
  }
  return "?";
}

Result<MeanResponseModel> ParseMeanResponseModel(std::string_view name) {
  if (name == "dtd") return MeanResponseModel::kDtd;
  if (name == "mg1") return MeanResponseModel::kMg1;
  if (name == "gg1") return MeanResponseModel::kGg1;
  return Status::InvalidArgument("unknown mean-response variant '" + std::string(name) +
                                 "': expected dtd, mg1 or gg1");
}

std::string_view MeanResponseModelName(MeanResponseModel m) {
  switch (m) {
    case MeanResponseModel::kDtd: return "dtd";
    case MeanResponseModel::kMg1: return "mg1";
    case MeanResponseModel::kGg1: return "gg1";
  }
  return "?";
}

Status ValidatePlacementInput(std::span<const double> mu, double lambda, const MepParams& p) {
  if (mu.empty()) return Status::InvalidArgument("no mapper node (empty mu)");
  for (size_t i = 0; i < mu.size(); ++i) {
    if (!(std::isfinite(mu[i]) && mu[i] > 0))
      return Status::InvalidArgument("mu of node " + std::to_string(i + 1) + " is " + FormatNumber(mu[i]) + ": must be > 0");
  }
  if (!(std::isfinite(lambda) && lambda > 0)) return Status::InvalidArgument("lambda " + FormatNumber(lambda) + " must be > 0");
  if (lambda >= Sum(mu)) {
    return Status::InvalidArgument("overloaded: lambda " + FormatNumber(lambda) + " >= sum of mu " + FormatNumber(Sum(mu)));
  }
  if (!(std::isfinite(p.d) && p.d >= 0)) return Status::InvalidArgument("D " + FormatNumber(p.d) + " must be >= 0");
  if (p.service_scv.size() > 1 && p.service_scv.size() != mu.size()) {
    return Status::InvalidArgument(std::to_string(p.service_scv.size()) + " service SCVs for " +
                                   std::to_string(mu.size()) + " nodes (give one, or one per node)");
  }
  for (double v : p.service_scv) {
    if (!(std::isfinite(v) && v >= 0)) return Status::InvalidArgument("service SCV " + FormatNumber(v) + " must be >= 0");
  }
  if (!(std::isfinite(p.arrival_scv) && p.arrival_scv >= 0))
    return Status::InvalidArgument("arrival SCV " + FormatNumber(p.arrival_scv) + " must be >= 0");
  if (p.model != MeanResponseModel::kDtd) {
    for (size_t i = 0; i < mu.size(); ++i) {
      if (!(KingmanFactor(p, i) > 0)) {
        return Status::InvalidArgument("node " + std::to_string(i + 1) +
                                       ": arrival and service SCVs both 0 (no queueing to balance)");
      }
    }
  }
  if (!(p.tolerance > 0) || p.max_iterations < 1)
    return Status::InvalidArgument("need tolerance > 0 and max_iterations >= 1");
  return Status::Ok();
}

double MeanResponse(const MepParams& p, std::span<const double> mu, size_t i, double lambda_i) {
  const double m = mu[i];
  if (p.model == MeanResponseModel::kDtd) return p.d * lambda_i / m + 1.0 / (m - lambda_i);
  return 1.0 / m + KingmanFactor(p, i) * lambda_i / (m * (m - lambda_i));
}

Result<std::vector<double>> FairRates(std::span<const double> mu, double lambda) {
  MR_RETURN_IF_ERROR(ValidatePlacementInput(mu, lambda));
  const double share = lambda / static_cast<double>(mu.size());
  const double slowest = *std::min_element(mu.begin(), mu.end());
  if (share >= slowest) {
    return Status::InvalidArgument("fair placement overloads the slowest node: lambda/N = " + FormatNumber(share) +
                                   " >= min mu = " + FormatNumber(slowest));
  }
  return std::vector<double>(mu.size(), share);
}

Result<std::vector<double>> DepRates(std::span<const double> mu, double lambda) {
  MR_RETURN_IF_ERROR(ValidatePlacementInput(mu, lambda));
  const double total = Sum(mu);
  std::vector<double> out;
  for (double m : mu) out.push_back(lambda * m / total);
  return out;
}

Result<std::vector<double>> SepRates(std::span<const double> mu, double lambda) {
  MR_RETURN_IF_ERROR(ValidatePlacementInput(mu, lambda));
  // Eq. 23: lambda_i = mu_i + (lambda - sum mu) / N; every node keeps the spare rate c.
  const double c = (Sum(mu) - lambda) / static_cast<double>(mu.size());
  std::vector<double> out;
  for (double m : mu) out.push_back(m - c);
  return out;
}

Result<std::vector<double>> SepClampedRates(std::span<const double> mu, double lambda) {
  MR_RETURN_IF_ERROR(ValidatePlacementInput(mu, lambda));
  // Water filling: the common spare capacity c over the active nodes; a node with mu_i <= c
  // would need a rate <= 0, so it leaves and c is re-solved (c only grows).
  std::vector<bool> active(mu.size(), true);
  double c = 0;
  for (bool changed = true; changed;) {
    changed = false;
    double sum = 0;
    int count = 0;
    for (size_t i = 0; i < mu.size(); ++i) {
      if (active[i]) sum += mu[i], ++count;
    }
    c = (sum - lambda) / count;
    // A rate within rounding of 0 (say sum mu accumulated to 89.999.. for 90) counts as 0: a
    // node given 1e-16 of the stream would still be waited for.
    for (size_t i = 0; i < mu.size(); ++i) {
      if (active[i] && mu[i] - c <= 1e-12 * mu[i]) active[i] = false, changed = true;
    }
  }
  std::vector<double> out(mu.size(), 0.0);
  for (size_t i = 0; i < mu.size(); ++i) {
    if (active[i]) out[i] = mu[i] - c;
  }
  return out;
}

Result<MepSolution> MepRates(std::span<const double> mu, double lambda, const MepParams& p, bool clamp) {
  MR_RETURN_IF_ERROR(ValidatePlacementInput(mu, lambda, p));
  auto rates = [&](double alpha) {
    std::vector<double> out(mu.size());
    for (size_t i = 0; i < mu.size(); ++i) out[i] = RateForMeanResponse(p, mu[i], i, alpha, clamp);
    return out;
  };
  auto f = [&](double alpha) { return lambda - Sum(rates(alpha)); };  // decreasing in alpha
  // Bracket: at the fastest idle node's mean response no node gets a positive rate (f >=
  // lambda > 0); far enough out every node approaches mu_i and f -> lambda - sum mu < 0.
  double a = 1.0 / *std::max_element(mu.begin(), mu.end()), fa = f(a);
  double b = 2.0 * a, fb = f(b);
  for (int doubling = 0; fb > 0; ++doubling) {
    if (doubling > 2000) return Status::Internal("mep: could not bracket the common mean response");
    a = b, fa = fb;
    b *= 2.0, fb = f(b);
  }
  // Secant kept inside the bracket (Illinois): superlinear, and never leaves [a, b].
  MepSolution s;
  for (s.iterations = 1;; ++s.iterations) {
    const double c = b - fb * (b - a) / (fb - fa);
    const double fc = f(c);
    const bool collapsed = std::fabs(b - a) <= 4e-16 * std::fabs(c);
    if (std::fabs(fc) <= p.tolerance * lambda || (collapsed && std::fabs(fc) <= 1e-9 * lambda)) {
      s.alpha = c;
      s.lambda = rates(c);
      // Hand the last residual to the working nodes in proportion, so the sum is lambda.
      const double total = Sum(s.lambda);
      for (double& x : s.lambda) x *= lambda / total;
      return s;
    }
    if (s.iterations >= p.max_iterations || collapsed) {
      return Status::FailedPrecondition("mep: secant did not converge in " + std::to_string(s.iterations) +
                                        " iterations (residual " + FormatNumber(fc) + ")");
    }
    if ((fc > 0) != (fb > 0)) {
      a = b, fa = fb;
    } else {
      fa *= 0.5;
    }
    b = c, fb = fc;
  }
}

double MeanResponseSlope(const MepParams& p, std::span<const double> mu, size_t i, double lambda_i) {
  const double spare = mu[i] - lambda_i;
  if (p.model == MeanResponseModel::kDtd) return p.d / mu[i] + 1.0 / (spare * spare);
  return KingmanFactor(p, i) / (spare * spare);
}

Result<MepSolution> DmepRates(std::span<const double> mu, double lambda, const MepParams& p, bool clamp) {
  MR_RETURN_IF_ERROR(ValidatePlacementInput(mu, lambda, p));
  const bool dtd = p.model == MeanResponseModel::kDtd;
  // Node i's rate at slope beta: the inverse of MeanResponseSlope, increasing in beta; a
  // beta at or below the slope's floor (D/mu_i for dtd, 0 otherwise) asks for -infinity.
  auto rate = [&](size_t i, double beta) {
    const double floor = dtd ? p.d / mu[i] : 0.0;
    const double k = dtd ? 1.0 : KingmanFactor(p, i);
    const double x = beta > floor ? mu[i] - std::sqrt(k / (beta - floor)) : -INFINITY;
    return clamp ? std::max(0.0, x) : x;
  };
  auto total = [&](double beta) {
    double s = 0;
    for (size_t i = 0; i < mu.size(); ++i) s += rate(i, beta);
    return s;
  };
  // Bracket [lo, hi]: below every node's slope floor the total is -infinity (0 clamped); the
  // total tends to sum mu > lambda as beta grows.
  double lo = 0;
  for (size_t i = 0; i < mu.size(); ++i) lo = std::max(lo, dtd ? p.d / mu[i] : 0.0);
  double hi = lo + 1.0;
  for (int doubling = 0; total(hi) < lambda; ++doubling) {
    if (doubling > 2000) return Status::Internal("dmep: could not bracket the common slope");
    hi = lo + 2.0 * (hi - lo);
  }
  MepSolution s;
  s.alpha = Bisect(total, lo, hi, lambda);
  for (size_t i = 0; i < mu.size(); ++i) s.lambda.push_back(rate(i, s.alpha));
  // Hand the last residual to the nodes with work in proportion, so the sum is lambda.
  double held = 0;
  for (double x : s.lambda) held += std::max(0.0, x);
  const double residual = lambda - Sum(s.lambda);
  for (double& x : s.lambda) {
    if (x > 0) x += residual * x / held;
  }
  return s;
}

Result<std::vector<double>> PlacementRates(Placement pl, std::span<const double> mu, double lambda,
                                           const MepParams& params) {
  switch (pl) {
    case Placement::kFair: return FairRates(mu, lambda);
    case Placement::kDep: return DepRates(mu, lambda);
    case Placement::kSep: return SepRates(mu, lambda);
    case Placement::kSepClamp: return SepClampedRates(mu, lambda);
    case Placement::kMep:
    case Placement::kMepClamp: {
      MR_ASSIGN_OR_RETURN(MepSolution s, MepRates(mu, lambda, params, pl == Placement::kMepClamp));
      return std::move(s.lambda);
    }
    case Placement::kDmep:
    case Placement::kDmepClamp: {
      MR_ASSIGN_OR_RETURN(MepSolution s, DmepRates(mu, lambda, params, pl == Placement::kDmepClamp));
      return std::move(s.lambda);
    }
  }
  return Status::InvalidArgument("unknown placement");
}

}  // namespace mr::model
