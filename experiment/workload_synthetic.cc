// generator: synthetic — seeded Poisson arrivals at a target load, log-uniform job sizes,
// map-heavy and shuffle-heavy jobs (docs/experiments.md, "Workloads"). The shape follows the
// policy experiment's workload (bench/policies/workload.py: a size S, a ratio r, half the
// jobs of each class, the busier station at the target load) with log-uniform sizes over
// [min_seconds, max_seconds] instead of a clipped log-normal, and common/rng.h draws so that a
// seed gives the same jobs on every machine.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "experiment/workload_sources.h"
#include "common/rng.h"

namespace mr::experiment {

namespace {

struct Sizes {
  double x = 0;  // seconds of the whole cluster's map capacity
  double y = 0;  // seconds of the whole cluster's shuffle capacity
};

// round(jobs * map_heavy) map-heavy jobs, in an order shuffled by rng (Fisher-Yates).
std::vector<bool> Classes(int jobs, double map_heavy, Rng& rng) {
  int heavy = static_cast<int>(std::lround(jobs * map_heavy));
  std::vector<bool> classes(jobs);
  for (int i = 0; i < jobs; ++i) classes[i] = i < heavy;
  for (int i = jobs - 1; i > 0; --i) {
    int j = static_cast<int>(rng.Uniform() * (i + 1));
    if (j > i) j = i;
    std::vector<bool>::swap(classes[i], classes[j]);
  }
  return classes;
}

}  // namespace

Result<JobList> GenerateSynthetic(const sched::PolicyOptions& params, uint64_t seed,
                                  const ClusterShape& cluster, ImportSummary* summary) {
  const int jobs = static_cast<int>(params.Int("jobs"));
  const double load = params.Double("load");
  const double lo = params.Double("min_seconds"), hi = params.Double("max_seconds");
  const double r_lo = params.Double("ratio_min"), r_hi = params.Double("ratio_max");
  if (lo > hi) return Status::InvalidArgument("min_seconds is above max_seconds");
  if (r_lo > r_hi) return Status::InvalidArgument("ratio_min is above ratio_max");
  const double map_capacity = MapCapacity(cluster), shuffle_capacity = ShuffleCapacity(cluster);
  if (!(shuffle_capacity > 0)) {
    return Status::InvalidArgument(
        "generator synthetic: its load is relative to the shuffle capacity; give every worker "
        "group a "
        "shuffle_bandwidth");
  }
  Rng rng(seed);
  std::vector<bool> map_heavy = Classes(jobs, params.Double("map_heavy"), rng);
  std::vector<Sizes> sizes(jobs);
  double sum_x = 0, sum_y = 0;
  for (int i = 0; i < jobs; ++i) {
    double s = std::exp(std::log(lo) + rng.Uniform() * (std::log(hi) - std::log(lo)));
    double r = r_lo + rng.Uniform() * (r_hi - r_lo);
    sizes[i] = map_heavy[i] ? Sizes{s, r * s} : Sizes{r * s, s};
    sum_x += sizes[i].x;
    sum_y += sizes[i].y;
  }
  // The busier station at `load`: rate * mean size = load.
  const double rate = load / (std::max(sum_x, sum_y) / jobs);
  const TaskRules rules = ReadTaskRules(params, cluster);
  JobList out;
  int maps_clipped = 0;
  double t = 0;
  for (int i = 0; i < jobs; ++i) {
    bool clipped = false;
    out.push_back(JobFromTotals(t, sizes[i].x * map_capacity, sizes[i].y * shuffle_capacity, rules,
                                &clipped));
    maps_clipped += clipped ? 1 : 0;
    t += rng.Exponential(1.0 / rate);
  }
  char note[160];
  std::snprintf(
      note, sizeof(note), "synthetic: %d map-heavy of %d, target load %.3f (arrival rate %.4f/s)",
      static_cast<int>(std::count(map_heavy.begin(), map_heavy.end(), true)), jobs, load, rate);
  summary->notes = note;
  if (maps_clipped > 0)
    summary->notes += "; " + std::to_string(maps_clipped) + " jobs have max_maps maps";
  return out;
}

}  // namespace mr::experiment
