// How many mapper nodes a job stream should use ("Modeling and Optimization of Straggling
// Mappers", section 5.2). More nodes give each less work but make the reducer wait for the
// slowest of more of them, so the MST has a knee.
//   Homogeneous M/M/1 nodes (Lemma 11): minimise f(n) = H_n / (mu - lambda/n) over integers
//   n > lambda/mu. f(n) >= H_n / mu, so the search stops at the first n with H_n / mu >= the
//   best f so far (by n ~ e^{mu f(knee)}): the answer is exact, not a local minimum.
//   K node types (mu_k, price P_k) under a budget (Lemma 13): minimise over counts N_k >= 0
//   with sum P_k N_k <= budget and sum N_k mu_k > lambda
//     f(N_1..N_K) = N H_N / (sum_k N_k mu_k - lambda),  N = sum_k N_k,
//   the MST of N nodes under the stochastic equilibrium (mu_i - lambda_i equal) without the
//   clamp at 0, as the paper states it. Exhaustive enumeration of every affordable count
//   vector: prod_k (budget / P_k + 1) candidates at most, refused above max_candidates.
// Pure functions; thread-compatible.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/status.h"

namespace mr::model {

struct KneeResult {
  int n = 0;         // the best number of nodes
  double mst = 0;    // f(n)
  int searched = 0;  // the largest n evaluated
};
// InvalidArgument unless mu > 0, lambda > 0 and the knee is below max_n.
Result<KneeResult> OptimalMapperCount(double mu, double lambda, int max_n = 10'000'000);

struct NodeType {
  std::string name;
  double mu = 1;     // service rate
  double price = 1;  // cost of one node
};
struct MixResult {
  std::vector<int> counts;  // per type
  double mst = 0;
  double cost = 0;
  int64_t evaluated = 0;    // candidate vectors examined
};
// f(N_1..N_K) of Lemma 13; +infinity when sum N_k mu_k <= lambda or no node.
double MixMst(std::span<const NodeType> types, std::span<const int> counts, double lambda);
// The cheapest among the count vectors of least f. InvalidArgument for no type, a type with
// mu or price <= 0, lambda <= 0, budget <= 0, no affordable stable mix, or too many candidates.
Result<MixResult> OptimalMix(std::span<const NodeType> types, double lambda, double budget,
                             int64_t max_candidates = 50'000'000);

// "NAME:MU:PRICE,..." -> types. InvalidArgument naming the bad item.
Result<std::vector<NodeType>> ParseNodeTypes(const std::string& text);

}  // namespace mr::model
