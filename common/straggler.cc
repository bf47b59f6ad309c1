#include "common/straggler.h"

#include <cmath>
#include <cstdio>

namespace mr {

namespace {

// SplitMix64's finaliser: a bijective 64-bit mix, so distinct inputs stay distinct.
uint64_t Mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A uniform in (0, 1] from the attempt's identity: each field is folded into the state
// through a full mix, so (job, task, attempt) and (job, attempt, task) differ.
double AttemptUniform(uint64_t seed, uint64_t job, uint32_t task, uint32_t attempt) {
  uint64_t h = Mix(seed);
  h = Mix(h ^ job);
  h = Mix(h ^ task);
  h = Mix(h ^ attempt);
  // The top 53 bits, plus one: never 0, so log(u) and pow(u, -1/α) stay finite.
  return static_cast<double>((h >> 11) + 1) * 0x1.0p-53;
}

}  // namespace

Status StragglerSpec::Validate() const {
  if (!enabled) return Status::Ok();
  if (!(std::isfinite(offset) && offset >= 0 && offset <= 86400)) {
    return Status::InvalidArgument("--straggler-offset must be in [0, 86400] seconds");
  }
  if (!(std::isfinite(rate) && rate > 0 && rate <= 1e6)) {
    return Status::InvalidArgument("--straggler-rate must be > 0 (1/seconds; the tail's mean is 1/rate)");
  }
  if (tail == StragglerTail::kPareto && !(std::isfinite(shape) && shape > 1 && shape <= 1000)) {
    return Status::InvalidArgument("--straggler-shape must be in (1, 1000] (a pareto tail with a finite mean)");
  }
  return Status::Ok();
}

double StragglerSpec::Mean() const { return enabled ? offset + 1.0 / rate : 0.0; }

std::string StragglerSpec::ToString() const {
  if (!enabled) return "off";
  char buf[128];
  if (tail == StragglerTail::kPareto) {
    std::snprintf(buf, sizeof buf, "pareto T=%g rate=%g shape=%g seed=%llu", offset, rate, shape,
                  static_cast<unsigned long long>(seed));
  } else {
    std::snprintf(buf, sizeof buf, "exp T=%g rate=%g seed=%llu", offset, rate, static_cast<unsigned long long>(seed));
  }
  return buf;
}

Result<StragglerTail> ParseStragglerTail(std::string_view text) {
  if (text == "exp") return StragglerTail::kExp;
  if (text == "pareto") return StragglerTail::kPareto;
  return Status::InvalidArgument("--straggler-tail must be exp or pareto, got '" + std::string(text) + "'");
}

const char* StragglerTailName(StragglerTail tail) { return tail == StragglerTail::kPareto ? "pareto" : "exp"; }

double StragglerTailQuantile(const StragglerSpec& spec, double u) {
  if (spec.tail == StragglerTail::kPareto) {
    // P(S > s) = (1 + s/σ)^−α with σ = (α − 1)/Δ, so that E[S] = σ/(α − 1) = 1/Δ.
    const double sigma = (spec.shape - 1.0) / spec.rate;
    return sigma * (std::pow(u, -1.0 / spec.shape) - 1.0);
  }
  return -std::log(u) / spec.rate;  // P(S > s) = e^−Δs
}

double StragglerDelay(const StragglerSpec& spec, uint64_t job, uint32_t task, uint32_t attempt) {
  if (!spec.enabled) return 0.0;
  return spec.offset + StragglerTailQuantile(spec, AttemptUniform(spec.seed, job, task, attempt));
}

}  // namespace mr
