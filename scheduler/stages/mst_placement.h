// How to split a job stream of total rate lambda over N heterogeneous mapper nodes of service
// rates mu_i ("Modeling and Optimization of Straggling Mappers", section 5.1): each solver
// returns the nodes' arrival rates lambda_i, summing to lambda. The paper's equations are the
// defaults; where they give a node a negative rate (a node too slow for the common target:
// the paper's "some jobs should be migrated from slow nodes") the *-clamp variants give it 0
// and re-solve over the others instead, the only form a live placement can dispatch.
//   fair (even): lambda_i = lambda / N (Hadoop's split); needs lambda / N < min mu_i.
//   dep  (deterministic equilibrium, Lemma 5): lambda_i = lambda mu_i / sum mu; equal
//        utilisation. Needs lambda < sum mu.
//   sep  (stochastic equilibrium, Lemma 6, Eq. 23): lambda_i = mu_i + (lambda - sum mu) / N,
//        mu_i - lambda_i equal for every node, negative where Eq. 24 (sum (mu_i - mu_min) <
//        lambda) fails. sep-clamp: lambda_i = max(0, mu_i - c), c re-solved over the nodes
//        left (water filling).
//   mep  (means equilibrium, Lemma 10, Eq. 37): every node has the same mean response alpha,
//        found by a safeguarded secant on f(alpha) = lambda - sum_i lambda_i(alpha)
//        (Algorithms 2-4); lambda_i(alpha) inverts the node's mean response in closed form.
//        dtd (the paper's Eq. 40): every node, negative rates allowed; mg1 / gg1 (textbook
//        forms, below): a node slower than alpha even idle gets 0 (their mean response has no
//        inverse below (1 - k)/mu, so they are not extended). mep-clamp: every model, 0 for a
//        node slower than alpha even idle. Mean-response models (MeanResponse):
//          dtd: E[R] = D lambda/mu + 1/(mu - lambda)   (D: the job's deterministic coefficient)
//          mg1: E[R] = 1/mu + lambda (1 + cs2) / (2 mu (mu - lambda))  (Pollaczek-Khinchine)
//          gg1: E[R] = 1/mu + lambda (ca2 + cs2) / (2 mu (mu - lambda))  (Kingman)
//        with cs2 the squared coefficient of variation of a node's service time and ca2 that
//        of its inter-arrival times. dtd with D = 0, or mg1 / gg1 with ca2 = cs2 = 1, is sep
//        (mep-clamp: sep-clamp).
//   dmep (derivative of means equilibrium, Lemma 10, Eq. 38): d E[R_i] / d lambda_i equal for
//        every node, which minimises Lemma 10's upper bound sum_i E[R_i]: with the common
//        value beta, dtd: lambda_i = mu_i - 1/sqrt(beta - D/mu_i); mg1 / gg1: lambda_i =
//        mu_i - sqrt(k_i / beta), k_i = (ca2 + cs2_i)/2; beta by bisection. Negative rates
//        as the paper's formula gives them; dmep-clamp: max(0, .), the non-negative optimum
//        of the bound (a node whose derivative at 0 already exceeds beta gets 0). At D = 0
//        (or k = 1) it is sep.
// Deterministic, allocation-light, no state: the master's --placement stage
// (scheduler/map_placement.h) calls the clamp forms with the measured mu_i. Errors
// (InvalidArgument) name the condition that fails.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr::model {

enum class Placement { kFair, kDep, kSep, kSepClamp, kMep, kMepClamp, kDmep, kDmepClamp };
enum class MeanResponseModel { kDtd, kMg1, kGg1 };

// "fair" (or "even"), "dep", "sep", "sep-clamp", "mep", "mep-clamp", "dmep", "dmep-clamp";
// InvalidArgument naming the text otherwise.
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

// Node i's mean response under the model. REQUIRES: lambda_i < mu_i (negative: the paper's
// formula as written), params valid.
double MeanResponse(const MepParams& params, std::span<const double> mu, size_t i, double lambda_i);

Result<std::vector<double>> FairRates(std::span<const double> mu, double lambda);
Result<std::vector<double>> DepRates(std::span<const double> mu, double lambda);
Result<std::vector<double>> SepRates(std::span<const double> mu, double lambda);         // Eq. 23
Result<std::vector<double>> SepClampedRates(std::span<const double> mu, double lambda);  // variant

struct MepSolution {
  std::vector<double> lambda;  // per node
  double alpha = 0;            // the common mean response of the nodes that get work
  int iterations = 0;          // evaluations of f after the bracket was found
};
// FailedPrecondition if the secant does not meet the tolerance in max_iterations. clamp: the
// mep-clamp variant (every model non-negative); else dtd may give negative rates.
Result<MepSolution> MepRates(std::span<const double> mu, double lambda, const MepParams& params,
                             bool clamp = false);
// Node i's d E[R_i] / d lambda_i at lambda_i under the model. REQUIRES as MeanResponse.
double MeanResponseSlope(const MepParams& params, std::span<const double> mu, size_t i, double lambda_i);
// dmep: alpha of the solution is the common slope beta.
Result<MepSolution> DmepRates(std::span<const double> mu, double lambda, const MepParams& params,
                              bool clamp = false);

// The solver for `p` (params used by kMep only).
Result<std::vector<double>> PlacementRates(Placement p, std::span<const double> mu, double lambda,
                                           const MepParams& params = {});

}  // namespace mr::model
