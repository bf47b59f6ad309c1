#include "common/log.h"

#include <cstdlib>

#include <spdlog/sinks/stdout_sinks.h>

namespace mr {

void InitLogging(const std::string& role) {
  auto logger = spdlog::stderr_logger_mt(role);
  logger->set_pattern("[%H:%M:%S.%e] [" + role + "] [%l] %v");
  const char* level = std::getenv("MR_LOG_LEVEL");
  logger->set_level(level ? spdlog::level::from_str(level) : spdlog::level::info);
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
}

}  // namespace mr
