#include "model/mst_commands.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "common/units.h"
#include "model/mst/mst.h"
#include "model/mst/mst_optimum.h"

namespace mr::model {
namespace {

// The response laws of the nodes in the max, as the header of mst_commands.h says.
Result<std::vector<Dtd>> Responses(const MstReportOptions& o, const std::vector<double>& rates) {
  if (o.arrivals.kind != ArrivalLaw::Kind::kExp) {
    std::vector<Dtd> out;
    for (size_t i = 0; i < rates.size(); ++i) {
      if (rates[i] < 0) {
        return Status::InvalidArgument("node " + std::to_string(i + 1) + " gets a negative rate " +
                                       FormatNumber(rates[i]) + ": a G/M/1 node has no law there");
      }
      if (o.idle == IdleNodes::kDrop && rates[i] <= 0) continue;
      Result<double> g = Gm1ResponseRate(o.arrivals, rates[i], o.mu[i]);
      if (!g.ok()) return g.status().WithContext("node " + std::to_string(i + 1));
      out.push_back(Dtd{.offset = 0, .rate = *g});
    }
    if (out.empty()) return Status::InvalidArgument("no node receives work");
    return out;
  }
  if (o.mep.model == MeanResponseModel::kDtd) return NodeResponses(o.mu, rates, o.mep.d, o.idle);
  std::vector<Dtd> out;
  for (size_t i = 0; i < rates.size(); ++i) {
    if (o.idle == IdleNodes::kDrop && rates[i] <= 0) continue;
    const double mean = MeanResponse(o.mep, o.mu, i, rates[i]);
    if (!(mean > 0)) return Status::InvalidArgument("node " + std::to_string(i + 1) + ": mean response <= 0");
    out.push_back(Dtd{.offset = 0, .rate = 1.0 / mean});
  }
  if (out.empty()) return Status::InvalidArgument("no node receives work");
  return out;
}

Result<double> MstBy(const std::string& method, std::span<const Dtd> r) {
  if (method == "exact") return MstExpTailsExact(r);
  if (method == "numeric") return MstNumeric(r);
  return Mst(r);
}

std::string RateSummary(const std::vector<double>& rates, char sep) {
  std::string s;
  for (double r : rates) s += (s.empty() ? "" : std::string(1, sep)) + FormatNumber(r, "%.6g");
  return s;
}

// One placement's outcome: its rates, and from them the MST and Lemma 10's bounds.
struct Outcome {
  Result<std::vector<double>> rates = Status::InvalidArgument("no rates");
  Result<double> mst = Status::InvalidArgument("no rates");
  MstBounds bounds;
  size_t in_max = 0;  // nodes in the max
};

Outcome Evaluate(const MstReportOptions& o, Result<std::vector<double>> rates) {
  Outcome r;
  r.rates = std::move(rates);
  if (!r.rates.ok()) {
    r.mst = r.rates.status();
    return r;
  }
  Result<std::vector<Dtd>> responses = Responses(o, *r.rates);
  if (!responses.ok()) {
    r.mst = responses.status();
    return r;
  }
  r.in_max = responses->size();
  r.mst = MstBy(o.method, *responses);
  if (Result<MstBounds> b = Lemma10Bounds(*responses); b.ok()) r.bounds = *b;
  return r;
}

void PrintRow(const MstReportOptions& o, double lambda, const std::string& name, const Outcome& r, std::ostream& out,
              const char* method_override = nullptr) {
  if (!r.rates.ok() || !r.mst.ok()) {
    const std::string why = !r.rates.ok() ? r.rates.status().message() : r.mst.status().message();
    if (o.csv) {
      out << FormatNumber(lambda) << "," << name << ",,,,,,,,\n";
    } else {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%-8g  %-10s %-12s %-8s ", lambda, name.c_str(), "-", "-");
      out << buf << why << "\n";
    }
    return;
  }
  const std::vector<double>& rates = *r.rates;
  int working = 0;
  for (double x : rates) working += x > 0;
  const auto [lo, hi] = std::minmax_element(rates.begin(), rates.end());
  // Every response law here has an exponential tail, so auto is exact up to kMaxExactNodes.
  const char* method = method_override                ? method_override
                       : o.method != "auto"            ? o.method.c_str()
                       : r.in_max <= kMaxExactNodes    ? "exact"
                                                       : "numeric";
  if (o.csv) {
    out << FormatNumber(lambda) << "," << name << "," << FormatNumber(*r.mst, "%.10g") << "," << method << ","
        << working << "," << FormatNumber(*lo, "%.6g") << "," << FormatNumber(*hi, "%.6g") << ","
        << RateSummary(rates, ';') << "," << FormatNumber(r.bounds.lower, "%.10g") << ","
        << FormatNumber(r.bounds.upper, "%.10g") << "\n";
    return;
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "%-8g  %-10s %-12.6g %-8s %-21s ", lambda, name.c_str(), *r.mst, method,
                (FormatNumber(r.bounds.lower, "%.4g") + ".." + FormatNumber(r.bounds.upper, "%.4g")).c_str());
  out << buf;
  if (rates.size() <= 16) {
    out << RateSummary(rates, ',') << "\n";
  } else {
    out << working << " of " << rates.size() << " nodes get work, lambda_i in [" << FormatNumber(*lo, "%.6g") << ", "
        << FormatNumber(*hi, "%.6g") << "]\n";
  }
}

}  // namespace

Status RunMstReport(const MstReportOptions& o, std::ostream& out) {
  if (o.placements.empty() && !o.optimum && !o.optimum_idle && !o.gm1) return Status::InvalidArgument("no placement given");
  if ((o.optimum || o.optimum_idle) && o.mep.model != MeanResponseModel::kDtd) {
    return Status::InvalidArgument("--placement opt searches DTD / M/M/1 nodes: it needs --variant dtd");
  }
  const bool gm1_nodes = o.arrivals.kind != ArrivalLaw::Kind::kExp;
  if (gm1_nodes && (o.mep.model != MeanResponseModel::kDtd || o.mep.d != 0 || o.optimum || o.optimum_idle)) {
    return Status::InvalidArgument("--arrivals " + o.arrivals.ToString() +
                                   " makes the nodes G/M/1: it needs --variant dtd, --d 0 and no opt placement");
  }
  if (o.lambdas.empty()) return Status::InvalidArgument("no lambda given");
  if (o.method != "auto" && o.method != "exact" && o.method != "numeric") {
    return Status::InvalidArgument("--method '" + o.method + "': expected auto, exact or numeric");
  }
  for (double lambda : o.lambdas) {
    Status st = ValidatePlacementInput(o.mu, lambda, o.mep);
    if (!st.ok()) return st.WithContext("lambda " + FormatNumber(lambda));
  }
  if (o.method == "exact" && o.mu.size() > static_cast<size_t>(kMaxExactNodes)) {
    return Status::InvalidArgument("--method exact is limited to " + std::to_string(kMaxExactNodes) + " nodes");
  }
  double total = 0;
  for (double m : o.mu) total += m;
  const bool dtd = o.mep.model == MeanResponseModel::kDtd;
  out << "# " << o.mu.size() << " mapper nodes, sum of mu " << FormatNumber(total) << "; mep variant "
      << MeanResponseModelName(o.mep.model) << "; MST of "
      << (gm1_nodes ? "G/M/1 nodes, " + o.arrivals.ToString() + " inter-arrival times, R_i ~ Exp(mu_i (1 - r0_i))"
          : dtd     ? (o.mep.d > 0 ? "DTD nodes, R_i = " + FormatNumber(o.mep.d) + " lambda_i/mu_i + Exp(mu_i - lambda_i)"
                                   : std::string("M/M/1 nodes, R_i ~ Exp(mu_i - lambda_i)"))
                    : std::string("exponential responses of the variant's mean (approximation)"))
      << (o.idle == IdleNodes::kCount ? "; every node in the max" : "; nodes without work left out of the max")
      << "\n";
  out << (o.csv ? "lambda,placement,mst,method,working_nodes,min_rate,max_rate,rates,lemma10_lower,lemma10_upper\n"
                : "lambda    placement  mst          method   lemma 10 bounds       lambda_i\n");
  for (double lambda : o.lambdas) {
    for (Placement p : o.placements) {
      PrintRow(o, lambda, std::string(PlacementName(p)), Evaluate(o, PlacementRates(p, o.mu, lambda, o.mep)), out);
    }
    if (o.gm1) {
      Result<Gm1Solution> g = Gm1Rates(o.mu, lambda, o.arrivals);
      PrintRow(o, lambda, "gm1", Evaluate(o, g.ok() ? Result<std::vector<double>>(g->lambda) : g.status()), out);
    }
    for (bool idle : {false, true}) {
      if (!(idle ? o.optimum_idle : o.optimum)) continue;
      Result<OptimumResult> best = OptimalGroupRates(o.mu, lambda, o.mep.d, idle);
      // The search's own MST (an idle group out of the max under opt-idle), and its rates'
      // bounds over the same nodes (opt-idle: those with work, as IdleNodes::kDrop).
      MstReportOptions same = o;
      if (idle) same.idle = IdleNodes::kDrop;
      Outcome r = Evaluate(same, best.ok() ? Result<std::vector<double>>(best->lambda) : best.status());
      if (best.ok()) r.mst = best->mst;
      PrintRow(o, lambda, idle ? "opt-idle" : "opt", r, out, "search");
    }
  }
  return Status::Ok();
}

namespace {

Status RunKnee(double mu, const std::vector<double>& lambdas, KneeModel model, bool csv, std::ostream& out) {
  if (csv) out << "lambda,n,mst,knee\n";
  char line[256];
  for (double lambda : lambdas) {
    Result<KneeResult> knee = OptimalMapperCount(mu, lambda, 10'000'000, model);
    if (!knee.ok()) return knee.status().WithContext("lambda " + FormatNumber(lambda));
    const int from = static_cast<int>(std::floor(lambda / mu)) + 1;
    if (!csv) {
      std::snprintf(line, sizeof line, "lambda %g, mu %g: knee at n = %d mappers, MST = %.6g (searched n = %d..%d)\n",
                    lambda, mu, knee->n, knee->mst, from, knee->searched);
      out << line;
      continue;
    }
    for (int n = from; n < knee->searched; ++n) {
      std::snprintf(line, sizeof line, "%g,%d,%.10g,%d\n", lambda, n, *HomogeneousMst(model, n, mu, lambda),
                    n == knee->n ? 1 : 0);
      out << line;
    }
  }
  return Status::Ok();
}

Status RunMix(const MstOptimalOptions& o, std::ostream& out) {
  std::string head = "lambda,budget";
  for (const NodeType& t : o.types) head += "," + t.name;
  out << head << ",nodes,cost,mst\n";
  char line[128];
  for (double lambda : o.lambdas) {
    for (double budget : o.budgets) {
      Result<MixResult> mix = OptimalMix(o.types, lambda, budget, 50'000'000, o.budget_rule);
      if (!mix.ok()) {
        if (mix.status().message().rfind("no affordable", 0) == 0) {  // a sweep point, not bad input
          std::snprintf(line, sizeof line, "%g,%g", lambda, budget);
          out << line << std::string(o.types.size(), ',') << ",0,,\n";
          continue;
        }
        return mix.status();
      }
      int nodes = 0;
      std::string counts;
      for (int c : mix->counts) counts += "," + std::to_string(c), nodes += c;
      std::snprintf(line, sizeof line, "%g,%g", lambda, budget);
      out << line << counts;
      std::snprintf(line, sizeof line, o.csv ? ",%d,%g,%.10g\n" : ",%d,%g,%.6g\n", nodes, mix->cost, mix->mst);
      out << line;
    }
  }
  return Status::Ok();
}

}  // namespace

Status RunMstOptimalCommand(const MstOptimalOptions& o, std::ostream& out) {
  if (o.mu) return RunKnee(*o.mu, o.lambdas, o.knee, o.csv, out);
  return RunMix(o, out);
}

}  // namespace mr::model
