// Deterministic random numbers for the models' and experiments' generators. std:: distributions
// are implementation-defined, so a seed must give the same workload on every
// libstdc++/libc++ version: only the mt19937_64 engine (fully specified) is used.
// Not thread-safe; one Rng per generator.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace mr {

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}

  // Uniform on (0, 1): never 0, so log() below is always finite.
  double Uniform() {
    for (;;) {
      double u = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
      if (u > 0.0) return u;
    }
  }
  double Exponential(double mean) { return -mean * std::log(Uniform()); }
  // Box-Muller without caching the second value, so each call costs two draws
  // and the stream position depends only on the number of calls.
  double Normal() {
    double u1 = Uniform(), u2 = Uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }
  double LogNormal(double mu, double sigma) { return std::exp(mu + sigma * Normal()); }
  // Poisson count by inversion for small means, normal approximation above 500
  // (hourly arrival counts in the generator stay far below that).
  int64_t Poisson(double mean);

 private:
  std::mt19937_64 engine_;
};

inline int64_t Rng::Poisson(double mean) {
  if (mean <= 0) return 0;
  if (mean > 500) {
    double v = std::round(mean + std::sqrt(mean) * Normal());
    return v < 0 ? 0 : static_cast<int64_t>(v);
  }
  // Multiply uniforms until the product drops below e^-mean (Knuth); split the
  // mean in chunks so e^-mean does not underflow.
  int64_t count = 0;
  double remaining = mean;
  while (remaining > 0) {
    double chunk = remaining > 50 ? 50 : remaining;
    remaining -= chunk;
    double limit = std::exp(-chunk), prod = Uniform();
    while (prod > limit) {
      ++count;
      prod *= Uniform();
    }
  }
  return count;
}

// A lognormal's (mu, sigma) from its mean and standard deviation.
struct LogNormalParams {
  double mu;
  double sigma;
};
inline LogNormalParams LogNormalFromMoments(double mean, double sd) {
  double s2 = std::log(1.0 + (sd * sd) / (mean * mean));
  return {std::log(mean) - s2 / 2.0, std::sqrt(s2)};
}

}  // namespace mr
