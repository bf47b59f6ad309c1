// TraceWriter: appends one job's events as JSON lines (docs/trace-format.md), each the
// bytes trace::EventJson writes. Events are buffered and written by Flush(), which the
// master calls once per scheduling round, so tracing costs one write per round, not one
// per event. Not thread-safe: owned by the master's single state thread.
#pragma once

#include <string>

#include "common/status.h"
#include "trace/event.h"

namespace mr::master {

class TraceWriter {
 public:
  explicit TraceWriter(std::string path) : path_(std::move(path)) {}
  // The caller sets the event's job (Trace in job_trace.h).
  void Append(const trace::Event& event);
  // Appends the buffered lines to the file; the buffer is dropped either way.
  Status Flush();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string pending_;
};

}  // namespace mr::master
