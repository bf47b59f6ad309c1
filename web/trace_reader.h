// Reading a job trace (JSON lines, docs/trace-format.md) into events. A bad
// line is an InvalidArgument naming its 1-based line number; blank lines are
// skipped. Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace mr::web {

// Parses JSON-lines text. Each non-blank line must be a JSON object with a
// string "event" and a numeric "t".
Result<std::vector<nlohmann::json>> ParseTraceLines(std::string_view text);

// Reads and parses a trace file; errors name the path and the line.
Result<std::vector<nlohmann::json>> ReadTraceFile(const std::string& path);

// Parses a JSON array of events (the /api/jobs/<id>/trace document).
Result<std::vector<nlohmann::json>> ParseTraceArray(std::string_view json_text);

}  // namespace mr::web
