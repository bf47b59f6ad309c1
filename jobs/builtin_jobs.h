// Factories of the built-in jobs (docs/jobs.md); CreateJob dispatches to them.
// Each validates its params: a missing or malformed parameter is InvalidArgument
// naming it. The returned Job is immutable and may be shared between threads.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "jobs/job.h"

namespace mr::jobs {

// Params that Plan() hands back to every task (hex cut points, see range_partitioner.h).
inline constexpr char kCutPointsParam[] = "_cuts";

Result<std::unique_ptr<Job>> NewWordCountJob(const Params& params);
Result<std::unique_ptr<Job>> NewSortJob(const Params& params);
Result<std::unique_ptr<Job>> NewGrepJob(const Params& params);
Result<std::unique_ptr<Job>> NewSyntheticJob(const Params& params);
Result<std::unique_ptr<Job>> NewStreamingJob(const Params& params);

// Reads the cut points a Plan() stored in params (absent -> none: all keys in part 0).
Result<std::vector<std::string>> CutPointsFromParams(const Params& params);

}  // namespace mr::jobs
