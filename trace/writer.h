// The one trace writer: a typed event as one JSON object, the bytes the master writes to
// a job's trace (docs/trace-format.md). Keys in sorted order; `event`, `t` and `job`
// always, every other field when it has a value. Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "trace/event.h"

namespace mr::trace {

// One JSON object on one line, without the line's '\n'. Strings must be valid UTF-8 (as
// the master's are: the worker and the checks of its messages make them so).
std::string EventJson(const Event& e);

// `events` as one JSON array (the /api/jobs/<id>/trace document's form).
std::string EventsJsonArray(const std::vector<Event>& events);

}  // namespace mr::trace
