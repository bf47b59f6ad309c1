#include "model/flex/flex_workload.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/rng.h"

namespace mr::model {
namespace {

constexpr double kSmallMean = 1.0;  // any value: work is normalised to total_tasks
constexpr double kLargeFactor = 10.0;
constexpr int kMaxDraws = 1000;

// A normal of mean `mean` and sd mean/3 truncated on the left at 0: redrawn while <= 0.
double LeftTruncatedNormal(Rng* rng, double mean) {
  for (;;) {
    double x = mean + mean / 3.0 * rng->Normal();
    if (x > 0) return x;
  }
}

// The paper's minimum: a normal of mean (1 - slack) S / J and sd a third of that, rounded to
// whole slots, redrawn while it is 0 (the paper insists on a non-zero minimum) or above the
// job's maximum. After kMaxDraws draws (a mean far from [1, max]) it is clamped to [1, max].
int DrawMinimum(Rng* rng, double mean, int max) {
  if (mean <= 0) return 1;
  double x = mean;
  for (int i = 0; i < kMaxDraws; ++i) {
    x = mean + mean / 3.0 * rng->Normal();
    long m = std::lround(x);
    if (m >= 1 && m <= max) return static_cast<int>(m);
  }
  return std::clamp(static_cast<int>(std::lround(x)), 1, max);
}

// n uniform draws on (0, scale), ascending and strictly increasing.
std::vector<double> SortedUniform(Rng* rng, int n, double scale) {
  for (;;) {
    std::vector<double> v(n);
    for (double& x : v) x = scale * rng->Uniform();
    std::sort(v.begin(), v.end());
    if (std::adjacent_find(v.begin(), v.end()) == v.end()) return v;
  }
}

}  // namespace

Status CheckFlexWorkload(const FlexWorkloadOptions& o) {
  auto bad = [](const std::string& what) { return Status::InvalidArgument("flex model: " + what); };
  if (o.jobs < 1) return bad("--jobs must be >= 1");
  if (o.slots < 1) return bad("--slots must be >= 1");
  if (!(o.small_share >= 0 && o.small_share <= 1)) return bad("--small must be in [0, 1]");
  if (!(o.slack >= 0 && o.slack <= 1)) return bad("--slack must be in [0, 1]");
  if (!(o.total_tasks > 0) || !std::isfinite(o.total_tasks)) return bad("--tasks must be > 0");
  if (!(o.deadline_scale > 0) || !std::isfinite(o.deadline_scale)) {
    return bad("--deadline-scale must be > 0");
  }
  if (o.sla_steps < 1) return bad("--sla-steps must be >= 1");
  return Status::Ok();
}

flex::FlexProblem MakeFlexInstance(const FlexWorkloadOptions& o, int index) {
  Rng rng(o.seed * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(index) * 0xBF58476D1CE4E5B9ULL);
  const int small = static_cast<int>(std::lround(o.small_share * o.jobs));
  // Which arrival positions hold the small jobs: a uniformly random subset (Fisher-Yates).
  std::vector<char> is_small(o.jobs, 0);
  std::fill(is_small.begin(), is_small.begin() + small, 1);
  for (int i = o.jobs - 1; i > 0; --i) {
    int k = static_cast<int>(rng.Uniform() * (i + 1));
    std::swap(is_small[i], is_small[std::min(k, i)]);
  }
  std::vector<double> work(o.jobs);
  double total = 0;
  for (int j = 0; j < o.jobs; ++j) {
    work[j] = LeftTruncatedNormal(&rng, is_small[j] ? kSmallMean : kLargeFactor * kSmallMean);
    total += work[j];
  }
  const double horizon = o.deadline_scale * o.total_tasks / o.slots;
  const double mean_min = (1.0 - o.slack) * o.slots / o.jobs;
  flex::FlexProblem p;
  p.slots = o.slots;
  p.now = 0;
  for (int j = 0; j < o.jobs; ++j) {
    flex::FlexJob job;
    job.work = work[j] * o.total_tasks / total;
    job.max_slots = static_cast<int>(std::min<double>(o.slots, std::max(1.0, std::ceil(job.work))));
    job.min_slots = DrawMinimum(&rng, mean_min, job.max_slots);
    job.metric = o.metric;
    job.terms.arrival = 0;
    job.terms.weight = rng.Uniform();
    job.terms.deadline = horizon * rng.Uniform();
    std::vector<double> d = SortedUniform(&rng, o.sla_steps, horizon);
    std::vector<double> pen = SortedUniform(&rng, o.sla_steps, 1.0);
    for (int i = 0; i < o.sla_steps; ++i) job.terms.sla.push_back({d[i], pen[i]});
    job.terms.alone = job.work / job.max_slots;
    p.jobs.push_back(std::move(job));
  }
  return p;
}

}  // namespace mr::model
