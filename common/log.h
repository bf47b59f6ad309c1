// Logging through spdlog. Daemons log to stderr (or a file given by the caller)
// with the process role in every line; level from MR_LOG_LEVEL (default info).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <spdlog/spdlog.h>

namespace mr {

// Configures the default logger: "[time] [role] [level] message".
void InitLogging(const std::string& role);

// A per-thread copy of the log: while a ThreadLogCopy lives on a thread, every line that
// thread logs through the logger InitLogging made (at or above its level) is also handed to
// `copy`, as "[level] message" without the time. The worker puts its lines about a task
// attempt into the attempt's log this way (worker/task/attempt_log.h). Nested copies: the
// innermost wins until it ends. `copy` must not outlive the object, and must not itself wait
// for the logger (it runs inside the logging call).
class ThreadLogCopy {
 public:
  explicit ThreadLogCopy(std::function<void(std::string_view line)> copy);
  ~ThreadLogCopy();
  ThreadLogCopy(const ThreadLogCopy&) = delete;
  ThreadLogCopy& operator=(const ThreadLogCopy&) = delete;

 private:
  friend struct ThreadLogCopyAccess;
  std::function<void(std::string_view)> copy_;
  ThreadLogCopy* outer_;
};

}  // namespace mr

#define MR_LOG_DEBUG(...) SPDLOG_DEBUG(__VA_ARGS__)
#define MR_LOG_INFO(...) ::spdlog::info(__VA_ARGS__)
#define MR_LOG_WARN(...) ::spdlog::warn(__VA_ARGS__)
#define MR_LOG_ERROR(...) ::spdlog::error(__VA_ARGS__)
