// One-line description of a registered policy, for `mr help` and the status
// page. Returns "" for an unknown name. Thread-safe (reads a constant table).
#pragma once

#include <string_view>

namespace mr::sched {

std::string_view PolicySummary(std::string_view name);

}  // namespace mr::sched
