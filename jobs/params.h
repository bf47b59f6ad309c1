// Helpers that validate and read built-in job parameters (string -> typed value).
// A missing required parameter or a malformed value is InvalidArgument naming it;
// parameters that no job knows are rejected unless generic (see IsGenericParam).
// Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/status.h"
#include "jobs/job.h"

namespace mr::jobs {

// Generic parameters the job spec may carry for every job (num_maps, split_bytes,
// reducers, ...) and planner-produced ones (leading '_'); jobs ignore them.
bool IsGenericParam(std::string_view name);

// InvalidArgument if `params` holds a name that is neither in `known` nor generic.
Status CheckKnownParams(std::string_view job, const Params& params, std::span<const std::string_view> known);

Result<std::string> GetRequiredParam(std::string_view job, const Params& params,
                                     const std::string& name);
// Non-negative decimal (e.g. "1.5"); `def` when absent.
Result<double> GetSecondsParam(const Params& params, const std::string& name, double def);
// A byte size ("64MiB", "1000"); `def` when absent.
Result<uint64_t> GetBytesParam(const Params& params, const std::string& name, uint64_t def);
Result<uint64_t> GetUintParam(const Params& params, const std::string& name, uint64_t def);

}  // namespace mr::jobs
