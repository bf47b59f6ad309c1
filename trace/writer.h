// The one trace writer: a typed event as one JSON object, the bytes the master writes to
// a job's trace (docs/trace-format.md). Keys in sorted order (bytewise); `event`, `t` and
// `job` always, every other field when it has a value. Integer fields are written as
// integers, floating-point ones in nlohmann's round-trip form (Grisu2) with ".0" on a whole
// number (2.0, not 2), a non-finite one as null: the bytes the master always wrote, now
// without building a JSON tree per event (tests/trace/event_json_test.cc holds the two
// equal). Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "trace/event.h"

namespace mr::trace {

// Appends e as one JSON object on one line, without the line's '\n', to out (a buffer the
// caller reuses: the master's trace writer appends a whole batch to one string). Strings
// should be valid UTF-8 (as the master's are: the worker and the checks of its messages
// make them so); a byte that does not start a well-formed UTF-8 sequence is written as
// U+FFFD, so the line stays valid JSON.
void AppendEventJson(const Event& e, std::string& out);

// e as AppendEventJson writes it, in a string of its own.
std::string EventJson(const Event& e);

// `events` as one JSON array, "[e1,e2]" (the /api/jobs/<id>/trace document's form).
std::string EventsJsonArray(const std::vector<Event>& events);

}  // namespace mr::trace
