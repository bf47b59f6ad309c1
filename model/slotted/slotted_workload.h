// Workloads of the slotted flow-time model ("Minimizing total flow time of MapReduce jobs"):
// each job arrives in a time slot and brings map tasks of one unit each and reduce tasks of
// whole units. The paper's generator (Poisson arrivals per slot, exponential or uniform
// unit counts, up to 10 reduce tasks per job) and a JSON file format (docs/model.md,
// "The slotted model"). Generators are deterministic for a seed on every platform
// (common/rng.h). Pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr::model {

struct SlottedJob {
  int64_t arrival = 1;       // a_i: the slot it arrives in (slots count from 1)
  int maps = 1;              // M_i map tasks of one unit each (>= 1)
  std::vector<int> reduces;  // R_i^(k): units of each of the K_i reduce tasks (each >= 1)

  int64_t reduce_units() const;  // R_i
};

// How a job's map or reduce unit count is drawn. kExponential: an exponential of mean
// `mean` rounded to the nearest integer, at least 1 (the mean stays within 2% of `mean`
// for means >= 5). kUniform: uniform on the integers {lo, ..., hi}.
struct UnitDist {
  enum class Kind { kExponential, kUniform };
  Kind kind = Kind::kExponential;
  double mean = 1;
  int lo = 1, hi = 1;
};
// "exp:MEAN" or "u:LO:HI" (LO >= 1, LO <= HI); InvalidArgument otherwise.
Result<UnitDist> ParseUnitDist(std::string_view text);
std::string FormatUnitDist(const UnitDist& d);

struct SlottedGenOptions {
  double rate = 2;          // lambda: mean arrivals per slot (Poisson)
  int64_t slots = 500;      // T: arrivals in slots 1..T
  UnitDist map;             // M_i
  UnitDist reduce;          // R_i
  int max_reduce_tasks = 10;  // K_i is uniform on {1, ..., min(this, R_i)}
  // The other reading of the paper's "up to 10 tasks per job": every job has as many reduce
  // tasks as it can, K_i = min(max_reduce_tasks, R_i). K_i is still drawn (and ignored), so
  // the jobs' arrivals, M_i and R_i are those of the uniform reading.
  bool most_reduce_tasks = false;
  uint64_t seed = 1;
};

// The paper's four workloads by name: "exp5-exp40" (map Exp(5), reduce Exp(40)),
// "exp30-exp15", "u1-9-u10-70" (map U[1,9], reduce U[10,70]) and "u10-50-u10-20".
// Sets `map` and `reduce` of `base` and returns it; NotFound listing the names otherwise.
Result<SlottedGenOptions> PaperWorkload(std::string_view name, SlottedGenOptions base = {});
std::vector<std::string> PaperWorkloadNames();

// Slot by slot from 1 to T: a Poisson(rate) number of arrivals, then for each arriving job
// M_i, R_i and K_i in that order; R_i is split over the K_i tasks as evenly as possible (the
// first R_i mod K_i tasks get one unit more). Draws are made slot by slot, so the jobs of a
// shorter T with the same seed are a prefix. InvalidArgument for rate outside (0, 1e4],
// slots < 1 or max_reduce_tasks < 1.
Result<std::vector<SlottedJob>> GenerateSlotted(const SlottedGenOptions& options);

// JSON: {"format": "mrlab-slotted-workload", "version": 1, "generator": "...",
//        "jobs": [{"arrival": 1, "maps": 5, "reduces": [14, 13]}, ...]} (one job a line).
// "generator" is free text describing the origin (optional on input). Jobs must be in
// non-decreasing arrival order, arrival >= 1, maps >= 1, every reduce >= 1; InvalidArgument
// naming the job otherwise.
Result<std::vector<SlottedJob>> ParseSlottedWorkload(std::string_view text);
std::string FormatSlottedWorkload(std::span<const SlottedJob> jobs, std::string_view generator);
Result<std::vector<SlottedJob>> LoadSlottedWorkload(const std::string& path);  // + NotFound
Status SaveSlottedWorkload(const std::string& path, std::span<const SlottedJob> jobs,
                           std::string_view generator);

// "exp5-exp40 map=exp:5 reduce=exp:40 rate=2 slots=500 seed=1 max-reduce-tasks=10": what FormatSlottedWorkload
// records as the generator of `options` (`name` = the workload's name or its two dists).
std::string DescribeGenerator(std::string_view name, const SlottedGenOptions& options);

}  // namespace mr::model
