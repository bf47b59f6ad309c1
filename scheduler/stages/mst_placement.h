// How to split a job stream of total rate lambda over N heterogeneous mapper nodes of service
// rates mu_i ("Modeling and Optimization of Straggling Mappers", section 5.1): each solver
// returns the nodes' arrival rates lambda_i, summing to lambda.
//   fair (even): lambda_i = lambda / N (Hadoop's split); needs lambda / N < min mu_i.
//   dep  (deterministic equilibrium, Lemma 5): lambda_i = lambda mu_i / sum mu; equal
//        utilisation. Needs lambda < sum mu.
//   sep  (stochastic equilibrium, Lemma 6): mu_i - lambda_i equal, optimal for M/M/1 nodes;
//        a node whose rate would be negative gets 0 and the rest is re-solved without it
//        (water filling: lambda_i = max(0, mu_i - c)). Needs lambda < sum mu.
//   mep  (means equilibrium, Lemma 10): every node that gets work has the same mean response
//        alpha, found by a safeguarded secant on f(alpha) = lambda - sum_i lambda_i(alpha)
//        (Algorithms 2-4); lambda_i(alpha) inverts the node's mean response in closed form, 0
//        when even an idle node is slower than alpha. Mean-response models (MeanResponse):
//          dtd: E[R] = D lambda/mu + 1/(mu - lambda)   (D: the job's deterministic coefficient)
//          mg1: E[R] = 1/mu + lambda (1 + cs2) / (2 mu (mu - lambda))  (Pollaczek-Khinchine)
//          gg1: E[R] = 1/mu + lambda (ca2 + cs2) / (2 mu (mu - lambda))  (Kingman)
//        with cs2 the squared coefficient of variation of a node's service time and ca2 that
//        of its inter-arrival times. dtd with D = 0, or mg1 / gg1 with ca2 = cs2 = 1, is sep.
// Deterministic, allocation-light, no state: the master's --placement stage
// (scheduler/map_placement.h) calls these with
// the measured mu_i. Errors (InvalidArgument) name the condition that fails.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr::model {

enum class Placement { kFair, kDep, kSep, kMep };
enum class MeanResponseModel { kDtd, kMg1, kGg1 };

// "fair" (or "even"), "dep", "sep", "mep"; InvalidArgument naming the text otherwise.
Result<Placement> ParsePlacement(std::string_view name);
std::string_view PlacementName(Placement p);
// "dtd", "mg1", "gg1".
Result<MeanResponseModel> ParseMeanResponseModel(std::string_view name);
std::string_view MeanResponseModelName(MeanResponseModel m);

struct MepParams {
  MeanResponseModel model = MeanResponseModel::kDtd;
  double d = 0;                     // dtd: T_i = d lambda_i / mu_i, d >= 0
  std::vector<double> service_scv;  // mg1, gg1: cs2 per node; empty = all 1, one value = all
  double arrival_scv = 1;           // gg1: ca2, the same for every node (the paper's Alg. 4)
  double tolerance = 1e-12;         // stop when |sum lambda_i - lambda| <= tolerance * lambda
  int max_iterations = 200;
};

// Checks mu (non-empty, each finite > 0), lambda (finite > 0) and the params; InvalidArgument.
Status ValidatePlacementInput(std::span<const double> mu, double lambda, const MepParams& params = {});

// Node i's mean response under the model. REQUIRES: 0 <= lambda_i < mu_i, params valid.
double MeanResponse(const MepParams& params, std::span<const double> mu, size_t i, double lambda_i);

Result<std::vector<double>> FairRates(std::span<const double> mu, double lambda);
Result<std::vector<double>> DepRates(std::span<const double> mu, double lambda);
Result<std::vector<double>> SepRates(std::span<const double> mu, double lambda);

struct MepSolution {
  std::vector<double> lambda;  // per node
  double alpha = 0;            // the common mean response of the nodes that get work
  int iterations = 0;          // evaluations of f after the bracket was found
};
// FailedPrecondition if the secant does not meet the tolerance in max_iterations.
Result<MepSolution> MepRates(std::span<const double> mu, double lambda, const MepParams& params);

// The solver for `p` (params used by kMep only).
Result<std::vector<double>> PlacementRates(Placement p, std::span<const double> mu, double lambda,
                                           const MepParams& params = {});

}  // namespace mr::model
