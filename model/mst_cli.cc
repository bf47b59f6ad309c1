#include "model/mst_cli.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "common/units.h"
#include "model/cli_args.h"
#include "model/model_commands.h"
#include "model/mst/mst.h"
#include "model/mst/mst_optimum.h"

namespace mr::model {
namespace {

namespace po = boost::program_options;

Result<double> ParseNumber(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v)) {
    return Status::InvalidArgument(what + ": '" + text + "' is not a number");
  }
  return v;
}

// "1,1,2,4" or "20x1,20x1.25" (COUNTxVALUE repeats VALUE COUNT times).
Result<std::vector<double>> ParseRateList(const std::string& text, const std::string& flag) {
  std::vector<double> out;
  for (const std::string& item : SplitCommaList(text)) {
    const size_t x = item.find('x');
    int count = 1;
    std::string value = item;
    if (x != std::string::npos) {
      MR_ASSIGN_OR_RETURN(double c, ParseNumber(item.substr(0, x), flag));
      if (c < 1 || c != std::floor(c) || c > 1e6) return Status::InvalidArgument(flag + ": bad count in '" + item + "'");
      count = static_cast<int>(c);
      value = item.substr(x + 1);
    }
    MR_ASSIGN_OR_RETURN(double v, ParseNumber(value, flag));
    out.insert(out.end(), count, v);
  }
  if (out.empty()) return Status::InvalidArgument(flag + ": empty list");
  return out;
}

// "1,2,3" or "FROM:TO:STEP" (inclusive, up to rounding).
Result<std::vector<double>> ParseSweep(const std::string& text, const std::string& flag) {
  if (text.find(':') == std::string::npos) return ParseRateList(text, flag);
  std::vector<std::string> parts;
  size_t pos = 0;
  for (size_t c; (c = text.find(':', pos)) != std::string::npos; pos = c + 1) parts.push_back(text.substr(pos, c - pos));
  parts.push_back(text.substr(pos));
  if (parts.size() != 3) return Status::InvalidArgument(flag + ": expected FROM:TO:STEP, got '" + text + "'");
  MR_ASSIGN_OR_RETURN(double from, ParseNumber(parts[0], flag));
  MR_ASSIGN_OR_RETURN(double to, ParseNumber(parts[1], flag));
  MR_ASSIGN_OR_RETURN(double step, ParseNumber(parts[2], flag));
  if (!(step > 0) || to < from || (to - from) / step > 1e6) {
    return Status::InvalidArgument(flag + ": '" + text + "' needs STEP > 0, TO >= FROM, at most 10^6 values");
  }
  std::vector<double> out;
  for (int64_t i = 0; from + i * step <= to + 1e-9 * step; ++i) out.push_back(from + i * step);
  return out;
}

// The response laws of the nodes that get work, as the header of mst_cli.h says.
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

int RunMstCommand(const std::vector<std::string>& args) {
  po::options_description desc(
      "mr model mst --mu LIST --lambda L [--placement P,...] [--variant dtd|mg1|gg1] [--d D] [--csv]\n"
      "Splits a job stream of total rate lambda over mapper nodes of service rates mu_i by each\n"
      "placement of 'Modeling and Optimization of Straggling Mappers' and prints the nodes'\n"
      "rates lambda_i and the mean sojourn time (MST: E[slowest node's response])");
  MstReportOptions o;
  std::string mu, lambda, placements = "fair,dep,sep,mep", variant = "dtd", cs2;
  desc.add_options()("help,h", "this help")
      ("mu", po::value(&mu)->required(), "service rates, comma-separated; COUNTxMU repeats: 20x1,20x0.8")
      ("lambda", po::value(&lambda)->required(), "total arrival rate(s): L, L1,L2,.. or FROM:TO:STEP")
      ("placement", po::value(&placements)->default_value(placements),
       "comma-separated: fair|even, dep, sep, mep; opt: a numerical search for the least MST among "
       "splits giving equal-mu nodes equal rates, every node working (dtd variant); opt-idle: the same, "
       "whole groups may be left idle")
      ("variant", po::value(&variant)->default_value(variant),
       "mep's mean response: dtd (D lambda/mu + 1/(mu-lambda)), mg1 (Pollaczek-Khinchine), gg1 (Kingman)")
      ("d", po::value(&o.mep.d)->default_value(0), "D >= 0: the DTD nodes' deterministic coefficient")
      ("cs2", po::value(&cs2), "mg1/gg1: service-time squared coefficient of variation, one or one per node (default 1)")
      ("ca2", po::value(&o.mep.arrival_scv)->default_value(1), "gg1: inter-arrival squared coefficient of variation")
      ("method", po::value(&o.method)->default_value("auto"),
       "MST by auto | exact (inclusion-exclusion, <= 20 nodes) | numeric (quadrature)")
      ("csv", po::bool_switch(&o.csv), "CSV instead of a table");
  po::variables_map vm;
  int code = 0;
  if (!ParseModelArgs(args, desc, vm, code)) return code;
  Result<std::vector<double>> mus = ParseRateList(mu, "--mu");
  if (!mus.ok()) return Fail(mus.status());
  o.mu = *mus;
  Result<std::vector<double>> lambdas = ParseSweep(lambda, "--lambda");
  if (!lambdas.ok()) return Fail(lambdas.status());
  o.lambdas = *lambdas;
  for (const std::string& name : SplitCommaList(placements)) {
    if (name == "opt" || name == "opt-idle") {
      (name == "opt" ? o.optimum : o.optimum_idle) = true;
      continue;
    }
    Result<Placement> p = ParsePlacement(name);
    if (!p.ok()) return Fail(p.status().WithContext("--placement"));
    o.placements.push_back(*p);
  }
  Result<MeanResponseModel> model = ParseMeanResponseModel(variant);
  if (!model.ok()) return Fail(model.status().WithContext("--variant"));
  o.mep.model = *model;
  if (vm.count("cs2")) {
    Result<std::vector<double>> list = ParseRateList(cs2, "--cs2");
    if (!list.ok()) return Fail(list.status());
    o.mep.service_scv = *list;
  }
  Status st = RunMstReport(o, std::cout);
  return st.ok() ? 0 : Fail(st, ExitCodeFor(st));
}

namespace {

int RunKnee(double mu, const std::vector<double>& lambdas, bool csv) {
  if (csv) std::printf("lambda,n,mst,knee\n");
  for (double lambda : lambdas) {
    Result<KneeResult> knee = OptimalMapperCount(mu, lambda);
    if (!knee.ok()) return Fail(knee.status().WithContext("lambda " + FormatNumber(lambda)));
    if (!csv) {
      std::printf("lambda %g, mu %g: knee at n = %d mappers, MST = %.6g (searched n = %d..%d)\n", lambda, mu,
                  knee->n, knee->mst, static_cast<int>(std::floor(lambda / mu)) + 1, knee->searched);
      continue;
    }
    for (int n = static_cast<int>(std::floor(lambda / mu)) + 1; n < knee->searched; ++n) {
      std::printf("%g,%d,%.10g,%d\n", lambda, n, *MstHomogeneousMm1(n, mu, lambda), n == knee->n ? 1 : 0);
    }
  }
  return 0;
}

int RunMix(const std::vector<NodeType>& types, const std::vector<double>& lambdas,
           const std::vector<double>& budgets, bool csv) {
  std::string head = "lambda,budget";
  for (const NodeType& t : types) head += "," + t.name;
  std::printf("%s,nodes,cost,mst\n", head.c_str());
  for (double lambda : lambdas) {
    for (double budget : budgets) {
      Result<MixResult> mix = OptimalMix(types, lambda, budget);
      if (!mix.ok()) {
        if (mix.status().message().rfind("no affordable", 0) == 0) {  // a sweep point, not bad input
          std::printf("%g,%g%s,0,,\n", lambda, budget, std::string(types.size(), ',').c_str());
          continue;
        }
        return Fail(mix.status());
      }
      int nodes = 0;
      std::string counts;
      for (int c : mix->counts) counts += "," + std::to_string(c), nodes += c;
      std::printf(csv ? "%g,%g%s,%d,%g,%.10g\n" : "%g,%g%s,%d,%g,%.6g\n", lambda, budget, counts.c_str(), nodes,
                  mix->cost, mix->mst);
    }
  }
  return 0;
}

}  // namespace

int RunMstOptimalCommand(const std::vector<std::string>& args) {
  po::options_description desc(
      "mr model mst-optimal --lambda L (--mu MU | --types NAME:MU:PRICE,... --budget B) [--csv]\n"
      "The number of M/M/1 mapper nodes that minimises the MST: with --mu, n equal nodes\n"
      "(min over n > lambda/mu of H_n / (mu - lambda/n): the knee); with --types and --budget,\n"
      "the best count of each node type within the budget (N H_N / (sum N_k mu_k - lambda))");
  std::string lambda, types, budget;
  double mu = 0;
  bool csv = false;
  desc.add_options()("help,h", "this help")
      ("lambda", po::value(&lambda)->required(), "total arrival rate(s): L, L1,L2,.. or FROM:TO:STEP")
      ("mu", po::value(&mu), "service rate of every node (homogeneous)")
      ("types", po::value(&types), "node types NAME:MU:PRICE, comma-separated: lp:1:400,hp:1.25:800")
      ("budget", po::value(&budget), "budget(s) for --types: B, B1,B2,.. or FROM:TO:STEP")
      ("csv", po::bool_switch(&csv), "CSV: with --mu the whole curve n,mst up to where the search stopped");
  po::variables_map vm;
  int code = 0;
  if (!ParseModelArgs(args, desc, vm, code)) return code;
  Result<std::vector<double>> lambdas = ParseSweep(lambda, "--lambda");
  if (!lambdas.ok()) return Fail(lambdas.status());
  const bool homogeneous = vm.count("mu") > 0, mixed = vm.count("types") > 0;
  if (homogeneous == mixed || mixed != (vm.count("budget") > 0)) {
    return Fail(Status::InvalidArgument("give --mu, or --types with --budget"));
  }
  if (homogeneous) return RunKnee(mu, *lambdas, csv);
  Result<std::vector<NodeType>> parsed = ParseNodeTypes(types);
  if (!parsed.ok()) return Fail(parsed.status().WithContext("--types"));
  Result<std::vector<double>> budgets = ParseSweep(budget, "--budget");
  if (!budgets.ok()) return Fail(budgets.status());
  return RunMix(*parsed, *lambdas, *budgets, csv);
}

}  // namespace mr::model
