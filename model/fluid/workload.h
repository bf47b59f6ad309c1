// Workloads for the tandem-queue model: a CSV file format (docs/model.md), its
// validation, and seeded generators — a Google-trace-shaped one (paper §5.1),
// its cube-root rebalanced variant (§5.2), the log-normal synthetic of §5.3 and
// a plain Poisson one for tests. Generators are deterministic for a seed on every
// platform (own distributions over mt19937_64). Pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "model/fluid/tandem_sim.h"

namespace mr::model {

// CSV: optional '#' comment lines, a header line "arrival,x,y", then one job per
// line. Errors: InvalidArgument "line N: ..." for a bad header, field count,
// number, a negative/non-finite arrival or a non-positive size.
Result<std::vector<TandemJob>> ParseWorkloadCsv(std::string_view text);
std::string FormatWorkloadCsv(std::span<const TandemJob> jobs);
Result<std::vector<TandemJob>> LoadWorkload(const std::string& path);  // + NotFound/IoError
Status SaveWorkload(const std::string& path, std::span<const TandemJob> jobs);

struct WorkloadStats {
  size_t jobs = 0;
  double mean_x = 0, sd_x = 0, mean_y = 0, sd_y = 0;
  double min_x = 0, max_x = 0, min_y = 0, max_y = 0;
  double map_heavy_fraction = 0;  // share of jobs with x > y
  double sd_ratio = 0;            // sd of y/x
  double load = 0;                // arrival rate × mean size (sizes normalised to mean 1)
};
WorkloadStats ComputeStats(std::span<const TandemJob> jobs);
std::string FormatStats(const WorkloadStats& s);

struct GoogleLikeOptions {
  int64_t jobs = 20000;
  double load = 0.5;  // rho = lambda·E[x] = lambda·E[y] (both means are 1)
  uint64_t seed = 1;
  bool rebalanced = false;
};
// Arrivals: hourly rates with a diurnal and a weekly swing plus hour-to-hour
// noise (mean 110 jobs/h, peak ≈ 2.7× mean as in the trace), Poisson within each
// hour. Sizes: x log-normal (mean 1, sd 3.65); y = x·gamma with gamma a two-part
// log-normal mixture (mean 1, sd 3.28, ~85% below 1), so y has mean 1 and sd
// ≈ 12.95 and most jobs are map-heavy. Sample means are normalised to exactly 1
// and time is scaled so that the mean arrival rate is `load` (the paper scales
// cluster capacity instead; same thing). InvalidArgument for jobs < 1 or load
// outside (0, 10].
Result<std::vector<TandemJob>> GenerateGoogleLike(const GoogleLikeOptions& options);

// Paper §5.2: each job's ratio y/x becomes its cube root (x kept), then shuffle
// sizes are rescaled so their mean is what it was.
std::vector<TandemJob> RebalanceCubeRoot(std::span<const TandemJob> jobs);

// Paper §5.3 synthetic: Poisson arrivals at rate `load`, x log-normal (1, 3.65),
// y = x·gamma with gamma log-normal (1, 3.28).
std::vector<TandemJob> GenerateLogNormal(int64_t jobs, double load, uint64_t seed);

// Poisson arrivals at `rate`, exponential sizes with the given means (tests).
std::vector<TandemJob> GeneratePoisson(int64_t jobs, double rate, double mean_x, double mean_y,
                                       uint64_t seed);

}  // namespace mr::model
