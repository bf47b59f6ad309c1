// GenerateGoogleLike (declared in workload.h): a synthetic stand-in for the
// Google cluster trace the paper replays (§5.1), built from the statistics the
// paper reports, since the trace itself is not redistributed with mrlab.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "common/rng.h"
#include "model/fluid/workload.h"

namespace mr::model {
namespace {

constexpr int kTraceHours = 29 * 24;       // the trace covers 29 days
constexpr double kMeanJobsPerHour = 110;   // ~80000 jobs / 29 days

// Relative submission rate for each hour of the 29 days, mean 1: a diurnal
// swing, quieter weekends, and log-normal hour-to-hour noise for the bursts
// visible in the paper's Figure 5.
std::vector<double> HourlyProfile(Rng& rng) {
  std::vector<double> f(kTraceHours);
  double sum = 0;
  for (int h = 0; h < kTraceHours; ++h) {
    double diurnal = 1.0 + 0.6 * std::sin(2.0 * std::numbers::pi * ((h % 24) - 9) / 24.0);
    int day = (h / 24) % 7;
    double weekly = day >= 5 ? 0.65 : 1.1;
    f[h] = diurnal * weekly * rng.LogNormal(-0.045, 0.3);
    sum += f[h];
  }
  for (double& v : f) v *= kTraceHours / sum;
  return f;
}

// gamma = y/x: with prob w a log-normal mostly below 1 (map-heavy jobs), else
// one mostly above 1; both with sigma 1, means chosen so that E[gamma] = 1 and
// sd(gamma) = 3.28, the values that give y mean 1 and sd 12.95 (paper §5.3).
class RatioMixture {
 public:
  RatioMixture() {
    const double sd = 3.28, w = kMapHeavyWeight, e_sigma2 = std::exp(kSigma * kSigma);
    const double k = (1.0 + sd * sd) / e_sigma2;  // w·ma² + (1−w)·mb² = k
    mean_a_ = 1.0 - std::sqrt(1.0 - (1.0 - k * (1.0 - w)) / w);
    mean_b_ = (1.0 - w * mean_a_) / (1.0 - w);
  }
  double Sample(Rng& rng) const {
    double mean = rng.Uniform() < kMapHeavyWeight ? mean_a_ : mean_b_;
    return rng.LogNormal(std::log(mean) - kSigma * kSigma / 2.0, kSigma);
  }

 private:
  static constexpr double kMapHeavyWeight = 0.85;
  static constexpr double kSigma = 1.0;
  double mean_a_ = 0, mean_b_ = 0;
};

std::vector<double> ArrivalHours(int64_t jobs, Rng& rng) {
  const std::vector<double> profile = HourlyProfile(rng);
  std::vector<double> hours;
  for (int64_t h = 0; static_cast<int64_t>(hours.size()) < jobs; ++h) {
    int64_t count = rng.Poisson(kMeanJobsPerHour * profile[h % kTraceHours]);
    size_t start = hours.size();
    for (int64_t i = 0; i < count; ++i) hours.push_back(static_cast<double>(h) + rng.Uniform());
    std::sort(hours.begin() + static_cast<std::ptrdiff_t>(start), hours.end());
  }
  hours.resize(static_cast<size_t>(jobs));
  return hours;
}

void NormaliseMeans(std::vector<TandemJob>& jobs) {
  double sx = 0, sy = 0;
  for (const TandemJob& j : jobs) sx += j.x, sy += j.y;
  double n = static_cast<double>(jobs.size());
  for (TandemJob& j : jobs) j.x *= n / sx, j.y *= n / sy;
}

}  // namespace

Result<std::vector<TandemJob>> GenerateGoogleLike(const GoogleLikeOptions& o) {
  if (o.jobs < 1) return Status::InvalidArgument("need at least one job");
  if (!(o.load > 0 && o.load <= 10)) return Status::InvalidArgument("load must be in (0, 10]");
  Rng rng(o.seed);
  const std::vector<double> hours = ArrivalHours(o.jobs, rng);
  const LogNormalParams px = LogNormalFromMoments(1.0, 3.65);
  const RatioMixture ratio;
  std::vector<TandemJob> jobs(hours.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    jobs[i].x = rng.LogNormal(px.mu, px.sigma);
    jobs[i].y = jobs[i].x * ratio.Sample(rng);
  }
  NormaliseMeans(jobs);
  if (o.rebalanced) jobs = RebalanceCubeRoot(jobs);
  // Mean sizes are 1, so an arrival rate of `load` jobs per time unit is load rho.
  double span_hours = std::max(hours.back(), 1e-9);
  double per_hour = static_cast<double>(jobs.size()) / span_hours;
  for (size_t i = 0; i < jobs.size(); ++i) jobs[i].arrival = hours[i] * per_hour / o.load;
  return jobs;
}

}  // namespace mr::model
