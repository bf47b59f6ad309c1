#include "model/mst/mst_mappers.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "common/units.h"
#include "model/mst/mst.h"

namespace mr::model {
namespace {

struct MixSearch {
  std::span<const NodeType> types;
  double lambda, budget;
  std::vector<int> counts;
  MixResult best;

  // Every count of type k given what types < k already cost.
  void Visit(size_t k, double spent) {
    if (k == types.size()) {
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

Result<KneeResult> OptimalMapperCount(double mu, double lambda, int max_n) {
  if (!(std::isfinite(mu) && mu > 0)) return Status::InvalidArgument("mu " + FormatNumber(mu) + " must be > 0");
  if (!(std::isfinite(lambda) && lambda > 0))
    return Status::InvalidArgument("lambda " + FormatNumber(lambda) + " must be > 0");
  const double first = std::floor(lambda / mu) + 1;  // the smallest n with n mu > lambda
  if (first > max_n) return Status::InvalidArgument("lambda/mu = " + FormatNumber(lambda / mu) + " needs too many nodes");
  KneeResult r;
  r.mst = std::numeric_limits<double>::infinity();
  double h = HarmonicNumber(static_cast<int>(first) - 1);
  for (int n = static_cast<int>(first); n <= max_n; ++n) {
    h += 1.0 / n;
    r.searched = n;
    if (h / mu >= r.mst) return r;  // f(m) >= H_m / mu >= H_n / mu for every m >= n
    const double f = h / (mu - lambda / n);
    if (f < r.mst) r.mst = f, r.n = n;
  }
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
                             int64_t max_candidates) {
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
  MixSearch s{types, lambda, budget, std::vector<int>(types.size(), 0), {}};
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
