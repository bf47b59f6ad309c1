#include "model/mst/mst_mappers.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "common/units.h"
#include "model/mst/mst.h"
#include "model/mst/quadrature.h"

namespace mr::model {
namespace {

struct MixSearch {
  std::span<const NodeType> types;
  double lambda, budget;
  BudgetRule rule;
  std::vector<int> counts;
  MixResult best;

  // Every count of type k given what types < k already cost.
  void Visit(size_t k, double spent) {
    if (k == types.size()) {
      if (rule == BudgetRule::kEqual && std::fabs(budget - spent) > 1e-9 * budget) return;
      ++best.evaluated;
      const double f = MixMst(types, counts, lambda);
      if (f < best.mst || (f == best.mst && spent < best.cost)) best.mst = f, best.cost = spent, best.counts = counts;
      return;
    }
    for (counts[k] = 0; spent + counts[k] * types[k].price <= budget * (1 + 1e-12); ++counts[k]) {
      Visit(k + 1, spent + counts[k] * types[k].price);
    }
    counts[k] = 0;
  }
};

}  // namespace

Result<KneeModel> ParseKneeModel(std::string_view name) {
  for (KneeModel m : {KneeModel::kMm1, KneeModel::kLemma12, KneeModel::kLemma12Printed}) {
    if (name == KneeModelName(m)) return m;
  }
  return Status::InvalidArgument("unknown knee model '" + std::string(name) + "': expected mm1, lemma12 or lemma12-printed");
}

std::string_view KneeModelName(KneeModel m) {
  switch (m) {
    case KneeModel::kMm1: return "mm1";
    case KneeModel::kLemma12: return "lemma12";
    case KneeModel::kLemma12Printed: return "lemma12-printed";
  }
  return "?";
}

double MakowskiVarmaV(int n) {
  // The integrand of the header's integral form: (1 - e^-t)^n sum_k (1 - (1 - x)^k) / k.
  auto integrand = [n](double t) {
    if (t <= 0) return 0.0;
    const double b = -std::expm1(-t), x = t / std::expm1(t);
    double sum = 0, power = 1;  // (1 - x)^k
    for (int k = 1; k <= n; ++k) {
      power *= 1.0 - x;
      sum += (1.0 - power) / k;
    }
    return std::pow(b, n) * sum;
  };
  // Its mass lies around t = ln n (where (1 - e^-t)^n turns on).
  const double knee = std::log(static_cast<double>(n)) + 1;
  Result<double> v = IntegrateSurvival(integrand, std::vector<double>{knee}, 1.0);
  return v.ok() ? *v : std::numeric_limits<double>::quiet_NaN();
}

namespace {

// The printed inner sum of Eq. 47: sum_{i=1..n} C(n,i) (-1)^{i+1} sum_{j=1..i} C(j-1, i-j)
// lambda / i^{j+1}, in long double (an alternating sum: n <= kMaxPrintedN).
double PrintedInner(int n, double lambda) {
  auto binom = [](int a, int b) -> long double {
    if (b < 0 || b > a) return 0;
    long double c = 1;
    for (int k = 1; k <= b; ++k) c = c * (a - b + k) / k;
    return c;
  };
  long double total = 0;
  for (int i = 1; i <= n; ++i) {
    long double inner = 0;
    for (int j = 1; j <= i; ++j) inner += binom(j - 1, i - j) * lambda / std::pow(static_cast<long double>(i), j + 1);
    total += (i % 2 == 1 ? 1 : -1) * binom(n, i) * inner;
  }
  return static_cast<double>(total);
}

}  // namespace

Result<double> HomogeneousMst(KneeModel model, int n, double mu, double lambda) {
  if (model == KneeModel::kMm1) return MstHomogeneousMm1(n, mu, lambda);
  MR_ASSIGN_OR_RETURN(double mm1, MstHomogeneousMm1(n, mu, lambda));  // checks the input
  if (model == KneeModel::kLemma12Printed && n > kMaxPrintedN) {
    return Status::InvalidArgument("Eq. 47 as printed is evaluated up to n = " + std::to_string(kMaxPrintedN));
  }
  const double h = HarmonicNumber(n), rho = lambda / (n * mu);
  const double v = model == KneeModel::kLemma12 ? MakowskiVarmaV(n) : PrintedInner(n, lambda);
  return mm1 / h * (h + (v - h) * rho);  // mm1 / h = 1 / (mu - lambda/n)
}

Result<KneeResult> OptimalMapperCount(double mu, double lambda, int max_n, KneeModel model) {
  if (!(std::isfinite(mu) && mu > 0)) return Status::InvalidArgument("mu " + FormatNumber(mu) + " must be > 0");
  if (!(std::isfinite(lambda) && lambda > 0))
    return Status::InvalidArgument("lambda " + FormatNumber(lambda) + " must be > 0");
  const double first = std::floor(lambda / mu) + 1;  // the smallest n with n mu > lambda
  if (first > max_n) return Status::InvalidArgument("lambda/mu = " + FormatNumber(lambda / mu) + " needs too many nodes");
  if (model == KneeModel::kLemma12Printed) max_n = std::min(max_n, kMaxPrintedN);
  KneeResult r;
  r.mst = std::numeric_limits<double>::infinity();
  double h = HarmonicNumber(static_cast<int>(first) - 1);
  for (int n = static_cast<int>(first); n <= max_n; ++n) {
    h += 1.0 / n;
    r.searched = n;
    // Lemma 11: f(m) >= H_m / mu >= H_n / mu for every m >= n. Lemma 12: f(m) = [(1 - rho_m) H_m
    // + rho_m V_m] / (mu - lambda/m) >= (1 - rho_m) H_m / mu, increasing in m (V_m >= 0 but below
    // H_m, so H_n / mu alone is no bound). The printed form has neither: every n is evaluated.
    const double lower = model == KneeModel::kMm1 ? h / mu : (1.0 - lambda / (n * mu)) * h / mu;
    if (model != KneeModel::kLemma12Printed && lower >= r.mst) return r;
    MR_ASSIGN_OR_RETURN(double f, HomogeneousMst(model, n, mu, lambda));
    if (f < r.mst) r.mst = f, r.n = n;
  }
  if (model == KneeModel::kLemma12Printed && r.n > 0) return r;
  return Status::InvalidArgument("no knee below " + std::to_string(max_n) + " nodes");
}

double MixMst(std::span<const NodeType> types, std::span<const int> counts, double lambda) {
  int n = 0;
  double capacity = 0;
  for (size_t k = 0; k < types.size(); ++k) n += counts[k], capacity += counts[k] * types[k].mu;
  if (n == 0 || capacity <= lambda) return std::numeric_limits<double>::infinity();
  return n * HarmonicNumber(n) / (capacity - lambda);
}

Result<MixResult> OptimalMix(std::span<const NodeType> types, double lambda, double budget,
                             int64_t max_candidates, BudgetRule rule) {
  if (types.empty()) return Status::InvalidArgument("no node type");
  if (!(std::isfinite(lambda) && lambda > 0)) return Status::InvalidArgument("lambda " + FormatNumber(lambda) + " must be > 0");
  if (!(std::isfinite(budget) && budget > 0)) return Status::InvalidArgument("budget " + FormatNumber(budget) + " must be > 0");
  double candidates = 1;
  for (const NodeType& t : types) {
    if (!(std::isfinite(t.mu) && t.mu > 0 && std::isfinite(t.price) && t.price > 0))
      return Status::InvalidArgument("node type '" + t.name + "': mu and price must be > 0");
    candidates *= std::floor(budget / t.price) + 1;
  }
  if (candidates > static_cast<double>(max_candidates)) {
    return Status::InvalidArgument("budget " + FormatNumber(budget) + " allows up to " + FormatNumber(candidates) +
                                   " count vectors, above the limit of " + std::to_string(max_candidates));
  }
  MixSearch s{types, lambda, budget, rule, std::vector<int>(types.size(), 0), {}};
  s.best.mst = std::numeric_limits<double>::infinity();
  s.Visit(0, 0.0);
  if (!std::isfinite(s.best.mst)) {
    return Status::InvalidArgument("no affordable mix within budget " + FormatNumber(budget) + " can serve lambda " +
                                   FormatNumber(lambda));
  }
  return s.best;
}

Result<std::vector<NodeType>> ParseNodeTypes(const std::string& text) {
  std::vector<NodeType> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const size_t a = item.find(':'), b = a == std::string::npos ? a : item.find(':', a + 1);
    char* end1 = nullptr;
    char* end2 = nullptr;
    NodeType t;
    if (b != std::string::npos) {
      t.name = item.substr(0, a);
      const std::string mu = item.substr(a + 1, b - a - 1), price = item.substr(b + 1);
      t.mu = std::strtod(mu.c_str(), &end1);
      t.price = std::strtod(price.c_str(), &end2);
      if (!t.name.empty() && !mu.empty() && !price.empty() && *end1 == '\0' && *end2 == '\0' &&
          std::isfinite(t.mu) && t.mu > 0 && std::isfinite(t.price) && t.price > 0) {
        out.push_back(t);
        continue;
      }
    }
    return Status::InvalidArgument("node type '" + item + "': expected NAME:MU:PRICE with MU, PRICE > 0");
  }
  if (out.empty()) return Status::InvalidArgument("no node type given");
  return out;
}

}  // namespace mr::model
