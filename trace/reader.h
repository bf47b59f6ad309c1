// The one trace reader: JSON lines (docs/trace-format.md) into typed events.
//
// A line must be a JSON object with a string "event" and a numeric "t"; anything else is
// InvalidArgument naming the 1-based line ("line 3: not valid JSON", "line 1: missing
// numeric field \"t\""). Blank lines are skipped. Tolerated, as readers always did:
//   * an event name this build does not know: read as Unknown (name, t, job);
//   * a field no event has: ignored;
//   * a known field missing, of another JSON type, or a number that does not fit its
//     member (a negative byte count, an integer beyond 64 bits, an infinite double): left
//     without a value, as if the line lacked it (trace/event.h);
//   * "job" missing or not a string: "".
// An integer field read from a floating-point number takes its integer part; a list of
// task ids keeps a non-string entry as its JSON text; a counter whose value is not a
// number is skipped. Pure functions except ReadTraceFile (reads a file); thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "trace/event.h"

namespace mr::trace {

// One line's event; errors without a line number (the callers below add it).
Result<Event> ParseEvent(std::string_view line);

// Every event of JSON-lines text, in order.
Result<std::vector<Event>> ParseTraceLines(std::string_view text);

// Reads and parses a trace file: NotFound if it cannot be opened, IoError if it cannot be
// read, else ParseTraceLines's result with errors prefixed by the path.
Result<std::vector<Event>> ReadTraceFile(const std::string& path);

// Parses a JSON array of events (the /api/jobs/<id>/trace document); a bad element is
// named by its 0-based index ("event 2: ...").
Result<std::vector<Event>> ParseTraceArray(std::string_view json_text);

}  // namespace mr::trace
