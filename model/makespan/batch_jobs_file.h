// The jobs file of `mr batch plan --jobs FILE` (docs/makespan.md, "Jobs file"): a JSON object
// whose "jobs" list gives each job of the batch, in arrival (FIFO) order, in one of three
// forms —
//   {"name": "sort", "maps": 30, "map_seconds": 4, "reduces": 30, "reduce_seconds": 5}
//       equal tasks (reduce_seconds required when reduces > 0; reduces 0 or absent: a
//       map-only job);
//   {"name": "grep", "map_durations": [4, 4.5, 3.9], "reduce_durations": [5]}
//       every task's seconds;
//   {"name": "join", "profile": {...}}
//       an ARIA profile (aria_profile.h, "Profile JSON"), simulated as BatchJobFromProfile.
// Names are optional (default J1, J2, ... by position) and unique. Pure functions but
// LoadBatchJobs (reads the file); thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "model/makespan/batch_sim.h"

namespace mr::model {

// InvalidArgument, one line naming `source`, the job (position and name) and the key, for
// anything else: not JSON, no "jobs" list, an empty list, an unknown key, a missing or
// mistyped value, two forms mixed, a repeated name.
Result<std::vector<BatchJob>> ParseBatchJobs(std::string_view text, const std::string& source);

// NotFound for a missing file, IoError for an unreadable one, else ParseBatchJobs.
Result<std::vector<BatchJob>> LoadBatchJobs(const std::string& path);

// The jobs as a jobs file, every job in the equal-task form when its tasks are equal and
// the durations form otherwise (profile jobs as their profile). ParseBatchJobs reads it back.
std::string BatchJobsToJson(const std::vector<BatchJob>& jobs);

}  // namespace mr::model
