// The mean sojourn time (MST) of "Modeling and Optimization of Straggling Mappers": a job's
// map tasks are spread over N independent mapper nodes (queues), node i's response time R_i
// has CDF F_i, and the reducer waits for the slowest, so MST = E[max_i R_i]
//   = integral over t >= 0 of (1 - prod_i F_i(t)) dt.
// Three ways to compute it: exact inclusion-exclusion over the 2^N - 1 subsets of nodes
// (Lemma 3) when every response is exponential after an offset and N <= kMaxExactNodes;
// adaptive Gauss-Kronrod quadrature of the integral for any N and any tail; a seeded Monte
// Carlo mean of the max (tests, cross-checks). And the response laws of the paper's nodes:
// M/M/1 (Exp(mu - lambda)) and the DTD node (offset D lambda/mu, then Exp(mu - lambda)).
// Which nodes the reducer waits for (IdleNodes): the paper's MST (Eqs. 7-10) takes the max
// over all N_m nodes, whatever their rate; the named variant kDrop leaves out a node given
// no work (lambda_i <= 0), as a real reducer would not wait for it.
// Pure functions of plain vectors; thread-compatible.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/status.h"
#include "model/mst/dtd.h"
#include "model/mst/quadrature.h"
#include "common/rng.h"

namespace mr::model {

// Inclusion-exclusion visits 2^N - 1 subsets: 10^6 at N = 20 (a few ms); refused above.
inline constexpr int kMaxExactNodes = 20;

// R ~ Exp(mu - lambda): the response time of an M/M/1 queue, as a DTD with offset 0.
// InvalidArgument unless mu > 0 and 0 <= lambda < mu (the queue must be stable).
Result<Dtd> Mm1Response(double mu, double lambda);
// The paper's DTD mapper node (its Lemma 1 with Poisson arrivals): R ~ T + Exp(mu - lambda),
// T = d * lambda / mu, where d >= 0 is the job's deterministic coefficient (large for a
// CPU-bound job, ~0 for a memory-bound one). d = 0 is the M/M/1 node. Errors as Mm1Response.
Result<Dtd> DtdNodeResponse(double mu, double lambda, double d);
enum class IdleNodes {
  kCount,  // the paper's: every node is in the max (lambda_i = 0: R_i ~ Exp(mu_i))
  kDrop,   // variant: a node with lambda_i <= 0 gets no task, the reducer does not wait for it
};
// The paper's DTD node at any rate lambda < mu, as its formulas are written: R ~ T +
// Exp(mu - lambda), T = d lambda / mu, so a negative lambda (S-EP's Eq. 23 where Eq. 24
// fails) gives a faster tail and, for d > 0, a negative offset. InvalidArgument unless mu > 0,
// lambda < mu and d >= 0 (all finite).
Result<Dtd> PaperNodeResponse(double mu, double lambda, double d);
// One response law per node (PaperNodeResponse), for every node (kCount) or the nodes with
// lambda_i > 0 (kDrop). InvalidArgument for vectors of different sizes, an unstable node
// (named), no node at all, or (kDrop) no node with lambda_i > 0.
Result<std::vector<Dtd>> NodeResponses(std::span<const double> mu, std::span<const double> lambda,
                                       double d, IdleNodes idle = IdleNodes::kCount);

// Lemma 10: max_i E[R_i] <= MST <= sum_i E[R_i] (Jensen; and P(max <= t) <= P(R_j <= t)
// term by term) for non-negative R_i. As the MST here is the integral over t >= 0 (Eq. 8),
// each E[R_i] is that of max(R_i, 0): e^{g T} / g for the paper's node at a negative rate
// (offset T < 0, tail Exp(g)), so the bounds hold there too. InvalidArgument for no law.
struct MstBounds {
  double lower = 0;  // max_i E[R_i]
  double upper = 0;  // sum_i E[R_i]
};
Result<MstBounds> Lemma10Bounds(std::span<const Dtd> responses);

// H_n = 1 + 1/2 + ... + 1/n (0 for n <= 0).
double HarmonicNumber(int n);
// n equal M/M/1 nodes sharing lambda evenly: H_n / (mu - lambda / n). InvalidArgument unless
// n >= 1, mu > 0, 0 < lambda < n mu.
Result<double> MstHomogeneousMm1(int n, double mu, double lambda);
// Lemma 3: sum over non-empty subsets A of the N nodes of (-1)^{|A|+1} / sum_{k in A} (mu_k -
// lambda_k), every node in the max as the paper has it. InvalidArgument as NodeResponses, or
// for more than kMaxExactNodes nodes.
Result<double> MstMm1Exact(std::span<const double> mu, std::span<const double> lambda);
// Lemma 3 with offsets: every R_i = T_i + Exp(g_i). With Tm = max_i T_i,
// MST = Tm + sum over A of (-1)^{|A|+1} exp(-sum_A g_k (Tm - T_k)) / sum_A g_k.
// InvalidArgument for a pareto tail, an invalid law, no node, or N > kMaxExactNodes.
Result<double> MstExpTailsExact(std::span<const Dtd> responses);

// MST of independent nodes with these response laws, any tail and any N, by
// IntegrateSurvival of 1 - prod_i F_i(t) (computed as -expm1(sum_i log1p(-S_i(t)))).
// Cost: O(N) per evaluation, a few hundred evaluations.
Result<double> MstNumeric(std::span<const Dtd> responses, const QuadratureOptions& options = {});
// MstExpTailsExact when every tail is exponential and N <= kMaxExactNodes, else MstNumeric.
Result<double> Mst(std::span<const Dtd> responses);
// The mean of max_i R_i over `samples` draws of independent R_i (node by node, in order).
// REQUIRES: every law valid, samples >= 1.
double MstMonteCarlo(std::span<const Dtd> responses, int64_t samples, Rng& rng);

}  // namespace mr::model
