#include "model/mst/mst_optimum.h"

#include <algorithm>
#include <cmath>

#include "model/mst/mst.h"
#include "model/mst/mst_placement.h"
#include "model/mst/quadrature.h"

namespace mr::model {
namespace {

// MST of the current rates, +infinity when they are not a valid point.
double Cost(std::span<const NodeGroup> g, std::span<const double> rate, double d) {
  Result<double> m = GroupMst(g, rate, d);
  return m.ok() ? *m : INFINITY;
}

struct Search {
  std::span<const NodeGroup> groups;
  double d;
  bool allow_idle;
  std::vector<double> rate;
  double best;

  // rate with `delta` of total rate moved from group b to group a.
  std::vector<double> Moved(size_t a, size_t b, double delta) const {
    std::vector<double> r = rate;
    r[a] += delta / groups[a].count;
    // Emptying b exactly, not to a rounding residue that would keep it in the max.
    r[b] = delta >= groups[b].count * r[b] * (1 - 1e-12) ? 0.0 : r[b] - delta / groups[b].count;
    return r;
  }
  double At(size_t a, size_t b, double delta) const { return Cost(groups, Moved(a, b, delta), d); }

  // Best move of rate from b to a; true if it improved the MST.
  bool Improve(size_t a, size_t b) {
    const double room = groups[a].count * (groups[a].mu - rate[a]) * (1 - 1e-9);
    const double hi = std::min(groups[b].count * rate[b], room);  // b emptied, or a nearly full
    if (hi <= 0) return false;
    double lo_x = 0, hi_x = hi;
    const double phi = 0.5 * (std::sqrt(5.0) - 1);
    double x1 = hi_x - phi * (hi_x - lo_x), x2 = lo_x + phi * (hi_x - lo_x);
    double f1 = At(a, b, x1), f2 = At(a, b, x2);
    for (int i = 0; i < 80 && hi_x - lo_x > 1e-12 * hi; ++i) {
      if (f1 <= f2) {
        hi_x = x2, x2 = x1, f2 = f1, x1 = hi_x - phi * (hi_x - lo_x), f1 = At(a, b, x1);
      } else {
        lo_x = x1, x1 = x2, f1 = f2, x2 = lo_x + phi * (hi_x - lo_x), f2 = At(a, b, x2);
      }
    }
    double x = f1 <= f2 ? x1 : x2, f = std::min(f1, f2);
    if (allow_idle) {
      if (const double fe = At(a, b, hi); fe < f) x = hi, f = fe;  // the end: b may drop out
    }
    if (f < best * (1 - 1e-9)) {
      rate = Moved(a, b, x);
      best = f;
      return true;
    }
    return false;
  }
};

}  // namespace

std::vector<NodeGroup> GroupNodes(std::span<const double> mu) {
  std::vector<NodeGroup> out;
  for (double m : mu) {
    auto it = std::find_if(out.begin(), out.end(), [m](const NodeGroup& g) { return g.mu == m; });
    if (it == out.end()) {
      out.push_back({1, m});
    } else {
      ++it->count;
    }
  }
  return out;
}

Result<double> GroupMst(std::span<const NodeGroup> groups, std::span<const double> rate, double d) {
  std::vector<Dtd> laws;
  std::vector<int> counts;
  std::vector<double> offsets;
  double scale = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    if (!(rate[g] > 0)) continue;
    MR_ASSIGN_OR_RETURN(Dtd r, DtdNodeResponse(groups[g].mu, rate[g], d));
    laws.push_back(r), counts.push_back(groups[g].count), offsets.push_back(r.offset);
    scale = std::max(scale, 1.0 / r.rate);
  }
  if (laws.empty()) return Status::InvalidArgument("no group receives work");
  auto survival = [&](double t) {
    double log_all_done = 0;
    for (size_t i = 0; i < laws.size(); ++i) {
      const double s = laws[i].Survival(t);
      if (s >= 1.0) return 1.0;
      log_all_done += counts[i] * std::log1p(-s);
    }
    return -std::expm1(log_all_done);
  };
  return IntegrateSurvival(survival, offsets, scale);
}

Result<OptimumResult> OptimalGroupRates(std::span<const double> mu, double lambda, double d,
                                        bool allow_idle_groups) {
  MepParams p;
  p.d = d;
  MR_RETURN_IF_ERROR(ValidatePlacementInput(mu, lambda, p));
  const std::vector<NodeGroup> groups = GroupNodes(mu);
  // Start from M-EP (feasible, usually close), grouped.
  MR_ASSIGN_OR_RETURN(MepSolution start, MepRates(mu, lambda, p, /*clamp=*/true));
  Search s{groups, d, allow_idle_groups, std::vector<double>(groups.size(), 0.0), 0};
  for (size_t i = 0; i < mu.size(); ++i) {
    for (size_t g = 0; g < groups.size(); ++g) {
      if (groups[g].mu == mu[i]) s.rate[g] = start.lambda[i];
    }
  }
  if (!allow_idle_groups) {
    // M-EP may idle slow groups: give every group 1e-6 of its capacity, taken in proportion
    // from the others (the golden section then moves it where it belongs).
    double held = 0;
    for (size_t g = 0; g < groups.size(); ++g) {
      if (s.rate[g] == 0) s.rate[g] = 1e-6 * groups[g].mu;
    }
    for (size_t g = 0; g < groups.size(); ++g) held += groups[g].count * s.rate[g];
    for (double& r : s.rate) r *= lambda / held;
  }
  s.best = Cost(groups, s.rate, d);
  for (int sweep = 0; sweep < 200; ++sweep) {
    bool moved = false;
    for (size_t a = 0; a < groups.size(); ++a) {
      for (size_t b = 0; b < groups.size(); ++b) {
        if (a != b) moved |= s.Improve(a, b);
      }
    }
    if (!moved) break;
  }
  OptimumResult out;
  out.mst = s.best;
  for (double m : mu) {
    for (size_t g = 0; g < groups.size(); ++g) {
      if (groups[g].mu == m) out.lambda.push_back(s.rate[g]);
    }
  }
  return out;
}

}  // namespace mr::model
