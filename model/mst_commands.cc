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

// The response laws of the nodes that get work, as the header of mst_commands.h says.
Result<std::vector<Dtd>> Responses(const MstReportOptions& o, const std::vector<double>& rates) {
  if (o.mep.model == MeanResponseModel::kDtd) return NodeResponses(o.mu, rates, o.mep.d);
  std::vector<Dtd> out;
  for (size_t i = 0; i < rates.size(); ++i) {
    if (rates[i] > 0) out.push_back(Dtd{.offset = 0, .rate = 1.0 / MeanResponse(o.mep, o.mu, i, rates[i])});
  }
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

void PrintRow(const MstReportOptions& o, double lambda, const std::string& name,
              const Result<std::vector<double>>& rates, const Result<double>& mst, std::ostream& out,
              const char* method_override = nullptr) {
  if (!rates.ok() || !mst.ok()) {
    const std::string why = !rates.ok() ? rates.status().message() : mst.status().message();
    if (o.csv) {
      out << FormatNumber(lambda) << "," << name << ",,,,,,\n";
    } else {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%-8g  %-9s %-12s %-8s ", lambda, name.c_str(), "-", "-");
      out << buf << why << "\n";
    }
    return;
  }
  int working = 0;
  for (double r : *rates) working += r > 0;
  const auto [lo, hi] = std::minmax_element(rates->begin(), rates->end());
  // Every response law here has an exponential tail, so auto is exact up to kMaxExactNodes.
  const char* method = method_override           ? method_override
                       : o.method != "auto"       ? o.method.c_str()
                       : working <= kMaxExactNodes ? "exact"
                                                   : "numeric";
  if (o.csv) {
    out << FormatNumber(lambda) << "," << name << "," << FormatNumber(*mst, "%.10g") << "," << method << "," << working
        << "," << FormatNumber(*lo, "%.6g") << "," << FormatNumber(*hi, "%.6g") << "," << RateSummary(*rates, ';') << "\n";
    return;
  }
  char buf[128];
  std::snprintf(buf, sizeof buf, "%-8g  %-9s %-12.6g %-8s ", lambda, name.c_str(), *mst, method);
  out << buf;
  if (rates->size() <= 16) {
    out << RateSummary(*rates, ',') << "\n";
  } else {
    out << working << " of " << rates->size() << " nodes get work, lambda_i in [" << FormatNumber(*lo, "%.6g") << ", "
        << FormatNumber(*hi, "%.6g") << "]\n";
  }
}

}  // namespace

Status RunMstReport(const MstReportOptions& o, std::ostream& out) {
  if (o.placements.empty() && !o.optimum && !o.optimum_idle) return Status::InvalidArgument("no placement given");
  if ((o.optimum || o.optimum_idle) && o.mep.model != MeanResponseModel::kDtd) {
    return Status::InvalidArgument("--placement opt searches DTD / M/M/1 nodes: it needs --variant dtd");
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
      << (dtd ? (o.mep.d > 0 ? "DTD nodes, R_i = " + FormatNumber(o.mep.d) + " lambda_i/mu_i + Exp(mu_i - lambda_i)"
                             : std::string("M/M/1 nodes, R_i ~ Exp(mu_i - lambda_i)"))
              : std::string("exponential responses of the variant's mean (approximation)"))
      << "\n";
  out << (o.csv ? "lambda,placement,mst,method,working_nodes,min_rate,max_rate,rates\n"
                : "lambda    placement mst          method   lambda_i\n");
  for (double lambda : o.lambdas) {
    for (Placement p : o.placements) {
      Result<std::vector<double>> rates = PlacementRates(p, o.mu, lambda, o.mep);
      Result<double> mst = Status::InvalidArgument("no rates");
      if (rates.ok()) {
        Result<std::vector<Dtd>> responses = Responses(o, *rates);
        mst = responses.ok() ? MstBy(o.method, *responses) : Result<double>(responses.status());
      }
      PrintRow(o, lambda, std::string(PlacementName(p)), rates, mst, out);
    }
    for (bool idle : {false, true}) {
      if (!(idle ? o.optimum_idle : o.optimum)) continue;
      Result<OptimumResult> best = OptimalGroupRates(o.mu, lambda, o.mep.d, idle);
      Result<std::vector<double>> rates = best.ok() ? Result<std::vector<double>>(best->lambda) : best.status();
      Result<double> mst = best.ok() ? Result<double>(best->mst) : best.status();
      PrintRow(o, lambda, idle ? "opt-idle" : "opt", rates, mst, out, "search");
    }
  }
  return Status::Ok();
}

namespace {

Status RunKnee(double mu, const std::vector<double>& lambdas, bool csv, std::ostream& out) {
  if (csv) out << "lambda,n,mst,knee\n";
  char line[256];
  for (double lambda : lambdas) {
    Result<KneeResult> knee = OptimalMapperCount(mu, lambda);
    if (!knee.ok()) return knee.status().WithContext("lambda " + FormatNumber(lambda));
    const int from = static_cast<int>(std::floor(lambda / mu)) + 1;
    if (!csv) {
      std::snprintf(line, sizeof line, "lambda %g, mu %g: knee at n = %d mappers, MST = %.6g (searched n = %d..%d)\n",
                    lambda, mu, knee->n, knee->mst, from, knee->searched);
      out << line;
      continue;
    }
    for (int n = from; n < knee->searched; ++n) {
      std::snprintf(line, sizeof line, "%g,%d,%.10g,%d\n", lambda, n, *MstHomogeneousMm1(n, mu, lambda),
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
      Result<MixResult> mix = OptimalMix(o.types, lambda, budget);
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
  if (o.mu) return RunKnee(*o.mu, o.lambdas, o.csv, out);
  return RunMix(o, out);
}

}  // namespace mr::model
