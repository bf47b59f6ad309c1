// The delayed-tail distribution (DTD) of "Modeling and Optimization of Straggling Mappers":
// a fixed offset T, below which nothing finishes, then a random tail of mean 1/Delta. It is
// the law of a map task's service time on a node and of a mapper node's response time in the
// paper's model (mst.h); the straggler delay a worker injects (common/straggler.h) uses the
// same two laws with the same parameters. Two tails:
//   exp:    X = T + Exp(Delta), CDF (1 - e^{-Delta (t - T)}) U(t - T); the same law as
//           MapTimeDist::kDelayedExp (map_time.h), drawn the same way (one uniform).
//   pareto: X = T + Lomax(shape alpha, scale (alpha - 1) / Delta), i.e. for t >= T
//           P(X > t) = (1 + Delta (t - T) / (alpha - 1))^{-alpha}. The paper's
//           rate function Lambda(t) = alpha log(1 + t / s) with the scale s chosen so that
//           the tail's mean is still 1/Delta (alpha > 1); alpha -> infinity gives the exp
//           tail back. A smaller alpha is a heavier tail (variance infinite for alpha <= 2).
// Both tails: mean T + 1/Delta. Pure values, no state; sampling draws from the caller's Rng.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "common/rng.h"

namespace mr::model {

struct Dtd {
  enum class Tail { kExp, kPareto };
  // T: the smallest value. >= 0 for every law a user or a worker gives (ParseDtd checks);
  // negative only for the paper's DTD node at a negative arrival rate (mst.h), whose
  // offset D lambda_i / mu_i is then below 0.
  double offset = 0;
  double rate = 1;    // Delta > 0: 1 / the tail's mean
  Tail tail = Tail::kExp;
  double shape = 3;   // alpha > 1, kPareto only

  // InvalidArgument naming the bad parameter (offset, rate or shape).
  Status Validate() const;
  // P(X <= t). REQUIRES: Validate().ok() (for every function below).
  double Cdf(double t) const;
  // P(X > t) = 1 - Cdf(t), computed directly so that it keeps its precision far in the tail.
  double Survival(double t) const;
  // T + 1/Delta.
  double Mean() const { return offset + 1.0 / rate; }
  // One value, by inversion of one uniform from `rng`.
  double Sample(Rng& rng) const;
  // "exp:T,DELTA" or "pareto:T,DELTA,ALPHA".
  std::string ToString() const;
};

// "exp:T,DELTA" or "pareto:T,DELTA[,ALPHA]" (ALPHA defaults to 3). InvalidArgument naming the
// text for anything else or a parameter out of range.
Result<Dtd> ParseDtd(std::string_view text);

}  // namespace mr::model
