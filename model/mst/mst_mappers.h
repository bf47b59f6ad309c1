// How many mapper nodes a job stream should use ("Modeling and Optimization of Straggling
// Mappers", section 5.2). More nodes give each less work but make the reducer wait for the
// slowest of more of them, so the MST has a knee.
//   Homogeneous M/M/1 nodes (Lemma 11): minimise f(n) = H_n / (mu - lambda/n) over integers
//   n > lambda/mu. (The paper prints Eq. 46 with n!/((n-i)!(i-1)!) = i C(n,i) where its own
//   proof derives C(n,i)/i: summed with alternating signs the printed form is 0 for every
//   n >= 2. We use the proof's, whose sum is H_n.) f(n) >= H_n / mu, so the search stops at
//   the first n with H_n / mu >= the best f so far (by n ~ e^{mu f(knee)}): the answer is
//   exact, not a local minimum.
//   Homogeneous nodes, Lemma 12 (Eq. 47): the interpolation of [36] (Makowski and Varma),
//     f(n) = [H_n + (V_n - H_n) rho] / (mu - lambda/n),  rho = lambda / (n mu),
//     V_n = sum_{i=1..n} (-1)^{i+1} C(n,i) sum_{j=1..i} C(i,j) (j-1)! / i^{j+1},
//   exact for n = 1 (the M/M/1 mean) and n = 2 (Nelson and Tantawi's (12 - rho)/8 form). The
//   paper prints the inner sum as sum_j C(j-1, i-j) lambda / i^{j+1}, which gives f(1) =
//   (1 + (lambda - 1) lambda/mu) / (mu - lambda), not the M/M/1 mean: kept as the variant
//   kLemma12Printed. V_n is computed without cancellation from its integral form
//     V_n = int_0^inf (1 - e^-t)^n sum_{k=1..n} (1 - (1 - x)^k) / k dt,  x = t / (e^t - 1),
//   (the alternating sum loses every digit by n ~ 60). V_n < H_n for n >= 2 (the nodes share
//   their arrivals, so in heavy traffic the slowest lags less): the search stops at the first n
//   with (1 - rho) H_n / mu >= the best f so far, a floor of f(m) for every m >= n.
//   K node types (mu_k, price P_k) under a budget (Lemma 13): minimise over counts N_k >= 0
//   with sum P_k N_k = budget (the paper's equality; the variant kAtMost: <= budget) and
//   sum N_k mu_k > lambda
//     f(N_1..N_K) = N H_N / (sum_k N_k mu_k - lambda),  N = sum_k N_k,
//   the MST of N nodes under the stochastic equilibrium (mu_i - lambda_i equal) without the
//   clamp at 0, as the paper states it. Exhaustive enumeration of every affordable count
//   vector: prod_k (budget / P_k + 1) candidates at most, refused above max_candidates.
// Pure functions; thread-compatible.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr::model {

struct KneeResult {
  int n = 0;         // the best number of nodes
  double mst = 0;    // f(n)
  int searched = 0;  // the largest n evaluated
};
enum class KneeModel {
  kMm1,             // Lemma 11 (Eq. 46 as its proof derives it)
  kLemma12,         // Eq. 47 with [36]'s V_n
  kLemma12Printed,  // variant: Eq. 47 as printed (n <= kMaxPrintedN)
};
inline constexpr int kMaxPrintedN = 40;  // the printed form is an alternating sum
// "mm1", "lemma12", "lemma12-printed"; InvalidArgument otherwise.
Result<KneeModel> ParseKneeModel(std::string_view name);
std::string_view KneeModelName(KneeModel m);
// V_n of Lemma 12 (1 for n = 1, 11/8 for n = 2). REQUIRES n >= 1.
double MakowskiVarmaV(int n);
// f(n) under `model`. InvalidArgument unless n >= 1, mu > 0, 0 < lambda < n mu (and, printed,
// n <= kMaxPrintedN).
Result<double> HomogeneousMst(KneeModel model, int n, double mu, double lambda);
// The best n. kMm1 / kLemma12: the search with the stopping rule above; kLemma12Printed: every
// n up to kMaxPrintedN. InvalidArgument unless mu > 0, lambda > 0 and the knee is below max_n.
Result<KneeResult> OptimalMapperCount(double mu, double lambda, int max_n = 10'000'000,
                                      KneeModel model = KneeModel::kMm1);

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
enum class BudgetRule {
  kEqual,   // the paper's: sum P_k N_k = budget (within 1e-9 of it)
  kAtMost,  // variant: sum P_k N_k <= budget
};
// The cheapest among the count vectors of least f. InvalidArgument for no type, a type with
// mu or price <= 0, lambda <= 0, budget <= 0, no affordable stable mix ("no affordable ..."),
// or too many candidates.
Result<MixResult> OptimalMix(std::span<const NodeType> types, double lambda, double budget,
                             int64_t max_candidates = 50'000'000, BudgetRule rule = BudgetRule::kEqual);

// "NAME:MU:PRICE,..." -> types. InvalidArgument naming the bad item.
Result<std::vector<NodeType>> ParseNodeTypes(const std::string& text);

}  // namespace mr::model
