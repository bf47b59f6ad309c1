// Straggler injection (`mr worker --straggler-*`): an extra delay for every map attempt
// on a worker, drawn from the delayed-tail distribution (DTD) of "Modeling and
// Optimization of Straggling Mappers": a fixed offset T, then a tail of mean 1/Δ,
// CDF (1 − e^{−Λ(t−T)})·U(t−T). The tail's rate function Λ is linear for `exp`
// (Λ(s) = Δs: an exponential tail) or logarithmic for `pareto` (Λ(s) = α·ln(1 + Δs/(α−1)):
// a Lomax tail of shape α, the same mean 1/Δ, a power-law survival). The draw is a pure
// function of (seed, job, task, attempt), so a rerun injects the same delays whatever the
// timing, and a retry or backup of a task gets a fresh draw. Used by the worker
// (worker/task/map_task.cc) and the task simulator (model/task_sim). Thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace mr {

enum class StragglerTail { kExp, kPareto };

struct StragglerSpec {
  bool enabled = false;  // false: no delay (the other fields are unused)
  double offset = 0;     // T >= 0, seconds
  double rate = 1;       // Δ > 0, 1/seconds: the tail's mean is 1/Δ
  StragglerTail tail = StragglerTail::kExp;
  double shape = 3;  // α > 1, pareto only (α <= 2: infinite variance)
  uint64_t seed = 0;

  // InvalidArgument naming the flag (--straggler-offset, -rate, -shape) when out of range.
  Status Validate() const;
  // E[delay] = T + 1/Δ for both tails; 0 when not enabled.
  double Mean() const;
  // "exp T=2 rate=0.5 seed=7" / "pareto T=2 rate=0.5 shape=3 seed=7" / "off".
  std::string ToString() const;
};

// "exp" or "pareto"; InvalidArgument naming --straggler-tail otherwise.
Result<StragglerTail> ParseStragglerTail(std::string_view text);
const char* StragglerTailName(StragglerTail tail);

// The delay in seconds injected into attempt `attempt` of map `task` of job `job`: 0 when
// !spec.enabled, else T + a tail draw by inversion of one uniform in (0, 1) hashed from
// (seed, job, task, attempt). REQUIRES: spec.Validate().ok().
double StragglerDelay(const StragglerSpec& spec, uint64_t job, uint32_t task, uint32_t attempt);

// The inversion itself, for tests: the tail quantile at survival probability u in (0, 1],
// i.e. the s with P(tail > s) = u.
double StragglerTailQuantile(const StragglerSpec& spec, double u);

}  // namespace mr
