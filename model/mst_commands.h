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
#include "model/mst/mst_mappers.h"
#include "model/mst/mst_placement.h"

namespace mr::model {

struct MstReportOptions {
  std::vector<double> mu;                   // per node
  std::vector<double> lambdas;              // total arrival rates, one report row group each
  std::vector<Placement> placements;        // in this order
  bool optimum = false;       // then a row "opt": every node keeps work (mst_optimum.h; dtd only)
  bool optimum_idle = false;  // and "opt-idle": whole groups of nodes may be left idle
  MepParams mep;                            // mep's variant; mep.d is also the DTD nodes' D
  std::string method = "auto";              // auto | exact | numeric
  bool csv = false;
};
// Per lambda and placement: the MST and the lambda_i. The MST is that of the paper's DTD
// nodes (R_i = D lambda_i / mu_i + Exp(mu_i - lambda_i); M/M/1 when D = 0) for the dtd
// variant; for mg1/gg1 each R_i is taken as exponential with the variant's mean response (an
// approximation, said in the header line). A placement that overloads a node (fair) gets a
// row saying so. InvalidArgument for bad input.
Status RunMstReport(const MstReportOptions& o, std::ostream& out);

struct MstOptimalOptions {
  std::vector<double> lambdas;    // total arrival rates, one answer (or curve) each
  std::optional<double> mu;       // homogeneous: every node's service rate (the knee)
  std::vector<NodeType> types;    // else: the node types to mix ...
  std::vector<double> budgets;    // ... under each of these budgets
  bool csv = false;               // with mu: the whole curve n,mst up to where the search stopped
};
// With mu: per lambda, the number of M/M/1 nodes that minimises the MST (min over
// n > lambda/mu of H_n / (mu - lambda/n)). With types: per lambda and budget, the best
// count of each type within the budget (a row with no counts when none is affordable).
// InvalidArgument for bad input (the rows already printed stay printed).
Status RunMstOptimalCommand(const MstOptimalOptions& o, std::ostream& out);

}  // namespace mr::model
