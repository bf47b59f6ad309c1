// `mr model mst|mst-optimal`: the straggling-mappers model. The flags fill the options of
// model/mst_commands.h; the work is there.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/model/model_flags.h"
#include "model/mst_commands.h"

namespace mr::cli {
namespace {

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

}  // namespace

int ModelMstMain(const Args& args) {
  po::options_description desc(
      "mr model mst --mu LIST --lambda L [--placement P,...] [--variant dtd|mg1|gg1] [--d D]\n"
      "             [--idle-nodes count|drop] [--arrivals exp|det|erlang:K|h2:C2] [--csv]\n"
      "Splits a job stream of total rate lambda over mapper nodes of service rates mu_i by each\n"
      "placement of 'Modeling and Optimization of Straggling Mappers' and prints the nodes'\n"
      "rates lambda_i and the mean sojourn time (MST: E[slowest node's response])");
  model::MstReportOptions o;
  std::string mu, lambda, placements = "fair,dep,sep,mep", variant = "dtd", cs2, idle = "count", arrivals = "exp";
  desc.add_options()("help,h", "this help")
      ("mu", po::value(&mu)->required(), "service rates, comma-separated; COUNTxMU repeats: 20x1,20x0.8")
      ("lambda", po::value(&lambda)->required(), "total arrival rate(s): L, L1,L2,.. or FROM:TO:STEP")
      ("placement", po::value(&placements)->default_value(placements),
       "comma-separated: fair|even, dep, sep (Eq. 23, negative rates allowed), sep-clamp (variant: 0 and "
       "re-solve), mep, mep-clamp, dmep (Eq. 38), dmep-clamp; gm1: Lemma 7's equilibrium for --arrivals; "
       "opt: a numerical search for the least MST among splits giving equal-mu nodes equal rates, every "
       "node working (dtd variant); opt-idle: the same, whole groups may be left idle (and leave the max)")
      ("idle-nodes", po::value(&idle)->default_value(idle),
       "count (the paper's: every node is in the max, R_i ~ Exp(mu_i) at lambda_i = 0) or drop (variant: "
       "a node without work is left out)")
      ("arrivals", po::value(&arrivals)->default_value(arrivals),
       "inter-arrival law of each node: exp (M/M/1 or DTD nodes) or det, erlang:K, h2:C2 (G/M/1 nodes, "
       "Lemma 7; needs --d 0)")
      ("variant", po::value(&variant)->default_value(variant),
       "mep's mean response: dtd (D lambda/mu + 1/(mu-lambda)), mg1 (Pollaczek-Khinchine), gg1 (Kingman)")
      ("d", po::value(&o.mep.d)->default_value(0), "D >= 0: the DTD nodes' deterministic coefficient")
      ("cs2", po::value(&cs2), "mg1/gg1: service-time squared coefficient of variation, one or one per node (default 1)")
      ("ca2", po::value(&o.mep.arrival_scv)->default_value(1), "gg1: inter-arrival squared coefficient of variation")
      ("method", po::value(&o.method)->default_value("auto"),
       "MST by auto | exact (inclusion-exclusion, <= 20 nodes) | numeric (quadrature)")
      ("csv", po::bool_switch(&o.csv), "CSV instead of a table");
  po::variables_map vm;
  if (auto rc = ParseModelFlags(args, desc, vm)) return *rc;
  Result<std::vector<double>> mus = ParseRateList(mu, "--mu");
  if (!mus.ok()) return BadModelFlag(args, mus.status());
  o.mu = *mus;
  Result<std::vector<double>> lambdas = ParseSweep(lambda, "--lambda");
  if (!lambdas.ok()) return BadModelFlag(args, lambdas.status());
  o.lambdas = *lambdas;
  if (idle != "count" && idle != "drop") {
    return BadModelFlag(args, Status::InvalidArgument("--idle-nodes '" + idle + "': expected count or drop"));
  }
  o.idle = idle == "count" ? model::IdleNodes::kCount : model::IdleNodes::kDrop;
  Result<model::ArrivalLaw> law = model::ParseArrivalLaw(arrivals);
  if (!law.ok()) return BadModelFlag(args, law.status().WithContext("--arrivals"));
  o.arrivals = *law;
  for (const std::string& name : SplitCommaList(placements)) {
    if (name == "opt" || name == "opt-idle" || name == "gm1") {
      (name == "opt" ? o.optimum : name == "gm1" ? o.gm1 : o.optimum_idle) = true;
      continue;
    }
    Result<model::Placement> p = model::ParsePlacement(name);
    if (!p.ok()) return BadModelFlag(args, p.status().WithContext("--placement"));
    o.placements.push_back(*p);
  }
  Result<model::MeanResponseModel> model = model::ParseMeanResponseModel(variant);
  if (!model.ok()) return BadModelFlag(args, model.status().WithContext("--variant"));
  o.mep.model = *model;
  if (vm.count("cs2")) {
    Result<std::vector<double>> list = ParseRateList(cs2, "--cs2");
    if (!list.ok()) return BadModelFlag(args, list.status());
    o.mep.service_scv = *list;
  }
  return ModelExit(args, model::RunMstReport(o, std::cout));
}

int ModelMstOptimalMain(const Args& args) {
  po::options_description desc(
      "mr model mst-optimal --lambda L (--mu MU | --types NAME:MU:PRICE,... --budget B) [--csv]\n"
      "The number of M/M/1 mapper nodes that minimises the MST: with --mu, n equal nodes\n"
      "(min over n > lambda/mu of H_n / (mu - lambda/n): the knee); with --types and --budget,\n"
      "the best count of each node type spending the budget (N H_N / (sum N_k mu_k - lambda))");
  model::MstOptimalOptions o;
  std::string lambda, types, budget, knee = "mm1", rule = "equal";
  double mu = 0;
  desc.add_options()("help,h", "this help")
      ("lambda", po::value(&lambda)->required(), "total arrival rate(s): L, L1,L2,.. or FROM:TO:STEP")
      ("mu", po::value(&mu), "service rate of every node (homogeneous)")
      ("model", po::value(&knee)->default_value(knee),
       "with --mu: mm1 (Lemma 11), lemma12 (Eq. 47 with its source's V_n) or lemma12-printed (variant: "
       "Eq. 47 as printed, n <= 40)")
      ("types", po::value(&types), "node types NAME:MU:PRICE, comma-separated: lp:1:400,hp:1.25:800")
      ("budget", po::value(&budget), "budget(s) for --types: B, B1,B2,.. or FROM:TO:STEP")
      ("budget-rule", po::value(&rule)->default_value(rule),
       "equal (the paper's Lemma 13: the counts spend exactly the budget) or at-most (variant)")
      ("csv", po::bool_switch(&o.csv), "CSV: with --mu the whole curve n,mst up to where the search stopped");
  po::variables_map vm;
  if (auto rc = ParseModelFlags(args, desc, vm)) return *rc;
  Result<std::vector<double>> lambdas = ParseSweep(lambda, "--lambda");
  if (!lambdas.ok()) return BadModelFlag(args, lambdas.status());
  const bool homogeneous = vm.count("mu") > 0, mixed = vm.count("types") > 0;
  if (homogeneous == mixed || mixed != (vm.count("budget") > 0)) {
    return BadModelFlag(args, Status::InvalidArgument("give --mu, or --types with --budget"));
  }
  o.lambdas = *lambdas;
  Result<model::KneeModel> model = model::ParseKneeModel(knee);
  if (!model.ok()) return BadModelFlag(args, model.status().WithContext("--model"));
  o.knee = *model;
  if (rule != "equal" && rule != "at-most") {
    return BadModelFlag(args, Status::InvalidArgument("--budget-rule '" + rule + "': expected equal or at-most"));
  }
  o.budget_rule = rule == "equal" ? model::BudgetRule::kEqual : model::BudgetRule::kAtMost;
  if (homogeneous) {
    o.mu = mu;
    return ModelExit(args, model::RunMstOptimalCommand(o, std::cout));
  }
  Result<std::vector<model::NodeType>> parsed = model::ParseNodeTypes(types);
  if (!parsed.ok()) return BadModelFlag(args, parsed.status().WithContext("--types"));
  o.types = *parsed;
  Result<std::vector<double>> budgets = ParseSweep(budget, "--budget");
  if (!budgets.ok()) return BadModelFlag(args, budgets.status());
  o.budgets = *budgets;
  return ModelExit(args, model::RunMstOptimalCommand(o, std::cout));
}

}  // namespace mr::cli
