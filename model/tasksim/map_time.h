// How long a job's map tasks take in the task-level simulator (task_sim.h): a
// distribution of a FACTOR that multiplies the job's map_seconds. Fixed and
// log-normal factors have mean 1 (the job keeps its size); the straggling-mappers
// paper's delayed tails ("Modeling and Optimization of Straggling Mappers") are a
// fixed offset T then a random tail, in units of map_seconds (map_seconds = 1 gives
// the paper's times in seconds). Pure values; sampling draws from the caller's Rng.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "common/rng.h"

namespace mr::model {

struct MapTimeDist {
  enum class Kind {
    kClusterDefault,  // the cluster's map_time_cv (ClusterSpec), as before per-job laws
    kFixed,           // factor 1
    kLogNormal,       // mean 1, coefficient of variation `cv`
    kDelayedExp,      // offset + Exp(rate): mean offset + 1/rate
    kDelayedPareto,   // Pareto I with scale `offset`, shape `alpha`: mean alpha*offset/(alpha-1)
  };
  Kind kind = Kind::kClusterDefault;
  double cv = 0;      // kLogNormal
  double offset = 0;  // kDelayedExp: T >= 0; kDelayedPareto: the minimum T > 0
  double rate = 0;    // kDelayedExp: Delta > 0
  double alpha = 0;   // kDelayedPareto: > 1 (a finite mean)

  // The factor's mean (1 for kClusterDefault, kFixed, kLogNormal).
  double Mean() const;
  // InvalidArgument naming the bad parameter.
  Status Validate() const;
  // One factor. REQUIRES: Validate().ok(), kind != kClusterDefault. kFixed draws nothing;
  // the others draw from `rng` (log-normal: two uniforms, the tails: one).
  double Sample(Rng& rng) const;
  std::string ToString() const;
};

// "fixed", "lognormal:CV", "exp:T,DELTA" or "pareto:T,ALPHA" (the --map-time syntax of
// `mr model tasksim`). InvalidArgument for anything else or a parameter out of range.
Result<MapTimeDist> ParseMapTimeDist(std::string_view text);

}  // namespace mr::model
