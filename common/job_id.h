// The one spelling of a job id: "job-000007". Shared by the master (traces, logs, API
// paths) and the CLI (status, progress, `mr status JOB`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mr {

// 7 -> "job-000007" (at least six digits).
std::string JobIdString(uint64_t id);

// "job-000007" or "7" -> 7; nullopt unless the rest is 1..18 decimal digits.
std::optional<uint64_t> ParseJobId(std::string_view text);

}  // namespace mr
