// The straggler trace analysis' report (experiment/mst_trace.h) as text and as JSON, for
// `mr model mst-trace`. Pure functions; thread-compatible.
#pragma once

#include <iosfwd>

#include <nlohmann/json.hpp>

#include "experiment/mst_trace.h"

namespace mr::experiment {

// The report as text: '#' summary lines, the per-node table, the MST lines, the assumptions.
void WriteMstTraceText(const MstTraceReport& report, std::ostream& out);
// The report as one JSON object (every field of the report; sojourn times as a list).
nlohmann::json MstTraceJson(const MstTraceReport& report);

}  // namespace mr::experiment
