// Factories of the built-in jobs (docs/jobs.md), one per row of the job table
// (jobs/job_table.cc); CreateJob dispatches to them.
// Each validates its params: a missing or malformed parameter is InvalidArgument
// naming it. The returned Job is immutable and may be shared between threads.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "jobs/job.h"

namespace mr::jobs {

// Params that Plan() hands back to every task (hex cut points, see range_partitioner.h).
inline constexpr char kCutPointsParam[] = "_cuts";

// `name` is the table row's (the job's name() returns it); params hold only parameters the
// row's flags declare, or generic ones (CreateJob checks that first).
Result<std::unique_ptr<Job>> NewWordCountJob(std::string_view name, const Params& params);
Result<std::unique_ptr<Job>> NewSortJob(std::string_view name, const Params& params);
Result<std::unique_ptr<Job>> NewGrepJob(std::string_view name, const Params& params);
Result<std::unique_ptr<Job>> NewSyntheticJob(std::string_view name, const Params& params);
Result<std::unique_ptr<Job>> NewStreamingJob(std::string_view name, const Params& params);

// Reads the cut points a Plan() stored in params (absent -> none: all keys in part 0).
Result<std::vector<std::string>> CutPointsFromParams(const Params& params);

}  // namespace mr::jobs
