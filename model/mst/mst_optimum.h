// A numerical reference for the map placements (mst_placement.h): the split of lambda that
// minimises the MST of the paper's DTD nodes (R_i = D lambda_i/mu_i + Exp(mu_i - lambda_i);
// M/M/1 at D = 0) among splits that give nodes of equal mu equal rates ("group-symmetric").
// Nodes are grouped by mu; the search moves rate between pairs of groups by golden section,
// sweep after sweep until no move gains 1e-9 relative. With allow_idle_groups it also tries
// the ends where a group is left without work: the group then drops out of the max, so the
// MST jumps there and the search also decides how many mappers to use (the paper's Lemma 4
// separates that question; its "non-negative optimal" keeps every node working, which is
// allow_idle_groups = false: every group keeps a rate > 0, however small). The start is M-EP,
// with groups it idles given a small share in the second mode. A local search
// on a small problem (K groups: K - 1 dimensions), not a proof of optimality; slow-ish (tens
// of milliseconds), meant for `mr model mst --placement opt,opt-idle` and bench/mst, not the master.
#pragma once

#include <span>
#include <vector>

#include "common/status.h"

namespace mr::model {

struct NodeGroup {
  int count = 0;
  double mu = 0;
};
// Nodes of exactly equal mu together, in order of first appearance.
std::vector<NodeGroup> GroupNodes(std::span<const double> mu);
// The MST when every node of group g gets rate[g] (0: the group gets no work). O(K) per
// quadrature point. InvalidArgument for an unstable group or no work at all.
Result<double> GroupMst(std::span<const NodeGroup> groups, std::span<const double> rate, double d);
// Per-node rates of the best group-symmetric split found, and its MST.
struct OptimumResult {
  std::vector<double> lambda;
  double mst = 0;
};
// InvalidArgument for bad input (as ValidatePlacementInput) or d < 0.
Result<OptimumResult> OptimalGroupRates(std::span<const double> mu, double lambda, double d,
                                        bool allow_idle_groups);

}  // namespace mr::model
