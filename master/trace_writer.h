// TraceWriter: appends one job's events as JSON lines (docs/trace-format.md).
// Events are buffered and written by Flush(), which the master calls once per
// scheduling round, so tracing costs one write per round, not one per event.
// Not thread-safe: owned by the master's single state thread.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace mr::master {

class TraceWriter {
 public:
  explicit TraceWriter(std::string path) : path_(std::move(path)) {}
  // `event` must carry "event" and "t"; "job" is added by the caller.
  void Append(const nlohmann::json& event);
  Status Flush();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string pending_;
};

}  // namespace mr::master
