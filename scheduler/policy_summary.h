// One-line description of a policy of the table (scheduler/policy_table.h), for `mr help`
// and the status page. Returns "" for an unknown name. Thread-safe.
#pragma once

#include <string_view>

namespace mr::sched {

std::string_view PolicySummary(std::string_view name);

}  // namespace mr::sched
