#include "model/mst/mst.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "common/units.h"

namespace mr::model {
namespace {

Status CheckNode(double mu, double lambda) {
  if (!(std::isfinite(mu) && mu > 0)) return Status::InvalidArgument("service rate mu " + FormatNumber(mu) + " must be > 0");
  if (!(std::isfinite(lambda) && lambda >= 0))
    return Status::InvalidArgument("arrival rate lambda " + FormatNumber(lambda) + " must be >= 0");
  if (lambda >= mu) {
    return Status::InvalidArgument("unstable node: lambda " + FormatNumber(lambda) + " >= mu " + FormatNumber(mu));
  }
  return Status::Ok();
}

// Adds sign * exp(-decay) / rate_sum over every subset of nodes i.. (depth first), where the
// subset so far has |A| parity `sign`, rate sum `rate_sum` and exponent `decay`.
double SubsetSum(std::span<const double> rate, std::span<const double> lag, size_t i, double sign,
                 double rate_sum, double decay) {
  if (i == rate.size()) return rate_sum > 0 ? sign * std::exp(-decay) / rate_sum : 0.0;
  return SubsetSum(rate, lag, i + 1, sign, rate_sum, decay) +
         SubsetSum(rate, lag, i + 1, -sign, rate_sum + rate[i],
                   decay + rate[i] * lag[i]);
}

}  // namespace

Result<Dtd> Mm1Response(double mu, double lambda) { return DtdNodeResponse(mu, lambda, 0.0); }

Result<Dtd> PaperNodeResponse(double mu, double lambda, double d) {
  if (!(std::isfinite(lambda) && lambda < 0)) return DtdNodeResponse(mu, lambda, d);
  MR_RETURN_IF_ERROR(CheckNode(mu, 0.0));
  if (!(std::isfinite(d) && d >= 0)) {
    return Status::InvalidArgument("deterministic coefficient D " + FormatNumber(d) + " must be >= 0");
  }
  return Dtd{.offset = d * lambda / mu, .rate = mu - lambda};
}

Result<Dtd> DtdNodeResponse(double mu, double lambda, double d) {
  MR_RETURN_IF_ERROR(CheckNode(mu, lambda));
  if (!(std::isfinite(d) && d >= 0)) {
    return Status::InvalidArgument("deterministic coefficient D " + FormatNumber(d) + " must be >= 0");
  }
  return Dtd{.offset = d * lambda / mu, .rate = mu - lambda};
}

Result<std::vector<Dtd>> NodeResponses(std::span<const double> mu, std::span<const double> lambda,
                                       double d, IdleNodes idle) {
  if (mu.size() != lambda.size()) {
    return Status::InvalidArgument(std::to_string(mu.size()) + " service rates but " +
                                   std::to_string(lambda.size()) + " arrival rates");
  }
  std::vector<Dtd> out;
  for (size_t i = 0; i < mu.size(); ++i) {
    Result<Dtd> r = PaperNodeResponse(mu[i], lambda[i], d);
    if (!r.ok()) return r.status().WithContext("node " + std::to_string(i + 1));
    if (idle == IdleNodes::kCount || lambda[i] > 0) out.push_back(*r);
  }
  if (out.empty()) {
    return Status::InvalidArgument(mu.empty() ? "no mapper node" : "no node receives work (every lambda_i <= 0)");
  }
  return out;
}

Result<MstBounds> Lemma10Bounds(std::span<const Dtd> responses) {
  if (responses.empty()) return Status::InvalidArgument("Lemma 10 bounds of no node");
  MstBounds b;
  b.lower = -INFINITY;
  for (const Dtd& r : responses) {
    MR_RETURN_IF_ERROR(r.Validate());
    // E[max(R, 0)]: the MST's integral runs over t >= 0. Only the paper's node at a negative
    // rate has T < 0, and its tail is exponential: the integral of e^{-g (t - T)} over t >= 0.
    const double mean = r.offset >= 0 || r.tail != Dtd::Tail::kExp ? r.Mean() : std::exp(r.rate * r.offset) / r.rate;
    b.lower = std::max(b.lower, mean);
    b.upper += mean;
  }
  return b;
}

double HarmonicNumber(int n) {
  double h = 0;
  for (int i = n; i >= 1; --i) h += 1.0 / i;  // smallest terms first
  return h;
}

Result<double> MstHomogeneousMm1(int n, double mu, double lambda) {
  if (n < 1) return Status::InvalidArgument("number of nodes " + std::to_string(n) + " must be >= 1");
  if (!(std::isfinite(mu) && mu > 0)) return Status::InvalidArgument("service rate mu " + FormatNumber(mu) + " must be > 0");
  if (!(std::isfinite(lambda) && lambda > 0 && lambda < n * mu)) {
    return Status::InvalidArgument("total arrival rate lambda " + FormatNumber(lambda) + " must be in (0, n mu = " +
                                   FormatNumber(n * mu) + ")");
  }
  return HarmonicNumber(n) / (mu - lambda / n);
}

Result<double> MstMm1Exact(std::span<const double> mu, std::span<const double> lambda) {
  MR_ASSIGN_OR_RETURN(std::vector<Dtd> responses, NodeResponses(mu, lambda, 0.0));
  return MstExpTailsExact(responses);
}

Result<double> MstExpTailsExact(std::span<const Dtd> responses) {
  if (responses.empty()) return Status::InvalidArgument("MST of no node");
  if (responses.size() > static_cast<size_t>(kMaxExactNodes)) {
    return Status::InvalidArgument("exact MST (inclusion-exclusion) is limited to " +
                                   std::to_string(kMaxExactNodes) + " nodes, got " +
                                   std::to_string(responses.size()) + ": use the numerical integral");
  }
  double latest = 0;
  for (const Dtd& r : responses) {
    MR_RETURN_IF_ERROR(r.Validate());
    if (r.tail != Dtd::Tail::kExp) return Status::InvalidArgument("exact MST needs exponential tails");
    latest = std::max(latest, r.offset);
  }
  std::vector<double> rate, lag;
  for (const Dtd& r : responses) rate.push_back(r.rate), lag.push_back(latest - r.offset);
  // The empty subset contributes 0; a subset of odd size counts +, of even size -. Start with
  // sign -1 so that adding the first member flips it to +1.
  return latest + SubsetSum(rate, lag, 0, -1.0, 0.0, 0.0);
}

Result<double> MstNumeric(std::span<const Dtd> responses, const QuadratureOptions& given) {
  if (responses.empty()) return Status::InvalidArgument("MST of no node");
  std::vector<double> offsets;
  double scale = 0;
  QuadratureOptions options = given;
  for (const Dtd& r : responses) {
    MR_RETURN_IF_ERROR(r.Validate());
    offsets.push_back(std::max(0.0, r.offset));  // the integral runs over t >= 0
    scale = std::max(scale, 1.0 / r.rate);
    // The max's survival decays like the heaviest tail, t^-alpha: stretch the tail map so
    // that the integrand stays bounded (quadrature.h).
    if (r.tail == Dtd::Tail::kPareto) options.tail_power = std::max(options.tail_power, 2.0 / (r.shape - 1.0));
  }
  auto survival = [responses](double t) {
    double log_all_done = 0;  // log prod_i F_i(t)
    for (const Dtd& r : responses) {
      const double s = r.Survival(t);
      if (s >= 1.0) return 1.0;
      log_all_done += std::log1p(-s);
    }
    return -std::expm1(log_all_done);
  };
  return IntegrateSurvival(survival, offsets, scale, options);
}

Result<double> Mst(std::span<const Dtd> responses) {
  const bool exp_tails = std::all_of(responses.begin(), responses.end(),
                                     [](const Dtd& r) { return r.tail == Dtd::Tail::kExp; });
  if (exp_tails && !responses.empty() && responses.size() <= static_cast<size_t>(kMaxExactNodes)) {
    return MstExpTailsExact(responses);
  }
  return MstNumeric(responses);
}

double MstMonteCarlo(std::span<const Dtd> responses, int64_t samples, Rng& rng) {
  double sum = 0;
  for (int64_t s = 0; s < samples; ++s) {
    double slowest = 0;
    for (const Dtd& r : responses) slowest = std::max(slowest, r.Sample(rng));
    sum += slowest;
  }
  return sum / static_cast<double>(samples);
}

}  // namespace mr::model
