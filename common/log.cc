#include "common/log.h"

#include <cstdlib>
#include <mutex>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

namespace mr {

namespace {

thread_local ThreadLogCopy* t_copy = nullptr;
thread_local bool t_copying = false;  // a line logged while copying is not copied again

// Hands each line to the logging thread's ThreadLogCopy, if it has one. No lock of its
// own: the copy belongs to the calling thread.
class ThreadCopySink final : public spdlog::sinks::sink {
 public:
  explicit ThreadCopySink(std::function<void(ThreadLogCopy*, std::string_view)> deliver)
      : deliver_(std::move(deliver)) {}
  void log(const spdlog::details::log_msg& msg) override {
    if (t_copy == nullptr || t_copying) return;
    t_copying = true;
    const auto level = spdlog::level::to_string_view(msg.level);
    std::string line;
    line.reserve(level.size() + msg.payload.size() + 3);
    line.append("[").append(level.data(), level.size()).append("] ").append(msg.payload.data(), msg.payload.size());
    deliver_(t_copy, line);
    t_copying = false;
  }
  void flush() override {}
  void set_pattern(const std::string&) override {}
  void set_formatter(std::unique_ptr<spdlog::formatter>) override {}

 private:
  std::function<void(ThreadLogCopy*, std::string_view)> deliver_;
};

}  // namespace

struct ThreadLogCopyAccess {
  static void Deliver(ThreadLogCopy* c, std::string_view line) { c->copy_(line); }
};

ThreadLogCopy::ThreadLogCopy(std::function<void(std::string_view line)> copy)
    : copy_(std::move(copy)), outer_(t_copy) {
  t_copy = this;
}

ThreadLogCopy::~ThreadLogCopy() { t_copy = outer_; }

void InitLogging(const std::string& role) {
  auto logger = spdlog::stderr_logger_mt(role);
  logger->set_pattern("[%H:%M:%S.%e] [" + role + "] [%l] %v");
  logger->sinks().push_back(std::make_shared<ThreadCopySink>(&ThreadLogCopyAccess::Deliver));
  const char* level = std::getenv("MR_LOG_LEVEL");
  logger->set_level(level ? spdlog::level::from_str(level) : spdlog::level::info);
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
}

}  // namespace mr
