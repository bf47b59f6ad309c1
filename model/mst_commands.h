// The work of `mr model mst` (the map placements of "Modeling and Optimization of Straggling
// Mappers": each placement's lambda_i and the MST they give, over one or more total arrival
// rates) and `mr model mst-optimal` (the best number of homogeneous M/M/1 mappers, or the
// best mix of node types under a budget). Each takes its options and an output stream; the
// flags are parsed in cli/model/cmd_mst.cc. InvalidArgument for bad input. Single-threaded.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/status.h"
#include "model/mst/gm1.h"
#include "model/mst/mst.h"
#include "model/mst/mst_mappers.h"
#include "model/mst/mst_placement.h"

namespace mr::model {

struct MstReportOptions {
  std::vector<double> mu;                   // per node
  std::vector<double> lambdas;              // total arrival rates, one report row group each
  std::vector<Placement> placements;        // in this order
  bool gm1 = false;           // then a row "gm1": Lemma 7's equilibrium for `arrivals` (gm1.h)
  bool optimum = false;       // then a row "opt": every node keeps work (mst_optimum.h; dtd only)
  bool optimum_idle = false;  // and "opt-idle": whole groups of nodes may be left idle
  MepParams mep;                            // mep's variant; mep.d is also the DTD nodes' D
  std::string method = "auto";              // auto | exact | numeric
  IdleNodes idle = IdleNodes::kCount;       // the paper's: every node in the max
  ArrivalLaw arrivals;                      // exp: M/M/1 / DTD nodes; else G/M/1 nodes (D = 0)
  bool csv = false;
};
// Per lambda and placement: the MST, Lemma 10's bounds on it (max and sum of the nodes' mean
// responses) and the lambda_i. The MST is that of the paper's DTD nodes (R_i = D lambda_i /
// mu_i + Exp(mu_i - lambda_i); M/M/1 when D = 0; a negative lambda_i as the formulas give it)
// for the dtd variant, or of G/M/1 nodes (R_i ~ Exp(mu_i (1 - r0_i))) when `arrivals` is not
// exp; for mg1/gg1 each R_i is taken as exponential with the variant's mean response (an
// approximation, said in the header line). Every node is in the max unless idle = kDrop. A
// placement that overloads a node (fair), or a negative rate a G/M/1 node cannot take, gets
// a row saying so. InvalidArgument for bad input.
Status RunMstReport(const MstReportOptions& o, std::ostream& out);

struct MstOptimalOptions {
  std::vector<double> lambdas;    // total arrival rates, one answer (or curve) each
  std::optional<double> mu;       // homogeneous: every node's service rate (the knee)
  KneeModel knee = KneeModel::kMm1;  // Lemma 11, Lemma 12, or Eq. 47 as printed
  std::vector<NodeType> types;    // else: the node types to mix ...
  std::vector<double> budgets;    // ... under each of these budgets
  BudgetRule budget_rule = BudgetRule::kEqual;  // the paper's sum P_k N_k = budget
  bool csv = false;               // with mu: the whole curve n,mst up to where the search stopped
};
// With mu: per lambda, the number of nodes that minimises the MST under `knee` (Lemma 11:
// min over n > lambda/mu of H_n / (mu - lambda/n)). With types: per lambda and budget, the
// best count of each type spending the budget (a row with no counts when none is possible).
// InvalidArgument for bad input (the rows already printed stay printed).
Status RunMstOptimalCommand(const MstOptimalOptions& o, std::ostream& out);

}  // namespace mr::model
