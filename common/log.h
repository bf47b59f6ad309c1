// Logging through spdlog. Daemons log to stderr (or a file given by the caller)
// with the process role in every line; level from MR_LOG_LEVEL (default info).
#pragma once

#include <string>

#include <spdlog/spdlog.h>

namespace mr {

// Configures the default logger: "[time] [role] [level] message".
void InitLogging(const std::string& role);

}  // namespace mr

#define MR_LOG_DEBUG(...) SPDLOG_DEBUG(__VA_ARGS__)
#define MR_LOG_INFO(...) ::spdlog::info(__VA_ARGS__)
#define MR_LOG_WARN(...) ::spdlog::warn(__VA_ARGS__)
#define MR_LOG_ERROR(...) ::spdlog::error(__VA_ARGS__)
