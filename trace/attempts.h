// What a job's trace says about its task attempts, read once for every consumer: the
// status page's Gantt (web/chart_layout), the replay (experiment/trace_replay), the
// straggler trace analysis (experiment/mst_trace) and the calibration. Pure functions;
// thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "trace/event.h"

namespace mr::trace {

// A task id as traced: "m-00003" is map 3, "r-00001" reduce 1.
struct TaskRef {
  char kind = 'm';  // 'm' or 'r'
  int index = 0;
};
// nullopt unless `id` is 'm' or 'r', '-', then 1 to 9 decimal digits.
std::optional<TaskRef> ParseTaskId(std::string_view id);

// One attempt of a task: its attempt_start (the master's assignment), its attempt_end (the
// worker's report, or the master's when it lost or killed it), or both.
struct Attempt {
  std::string task;                     // as traced; "" when its events carry none
  std::optional<TaskRef> ref;           // ParseTaskId(task)
  int64_t attempt = 0;                  // 0 when its events carry none
  std::optional<AttemptStart> started;  // the last attempt_start before its end
  std::optional<AttemptEnd> ended;      // its attempt_end (the last, if a trace repeats one)
  // The t of the first master_restart that found it without an end: what the old master
  // waited for died with it (the workers cancel such attempts when they register again).
  std::optional<double> restart;
};

// Every attempt of a job's events, keyed by (task, attempt): those with an attempt_end in
// the order of their (last) attempt_end, then those without one in the order of their
// first event. Other events are ignored apart from master_restart (Attempt::restart).
std::vector<Attempt> CollectAttempts(const std::vector<Event>& events);

// A field a consumer cannot do without: its value, or InvalidArgument
// "WHERE: EVENT without a numeric 'KEY'" (for example "job-000002: attempt_end without a
// numeric 'worker'").
template <class T>
Result<T> RequireNumber(const std::optional<T>& value, EventType event, std::string_view key,
                        std::string_view where) {
  if (value) return *value;
  return Status::InvalidArgument(std::string(where) + ": " + std::string(EventTypeName(event)) +
                                 " without a numeric '" + std::string(key) + "'");
}

}  // namespace mr::trace
