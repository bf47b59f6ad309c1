#include "worker/task/attempt_log.h"

#include <fcntl.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "common/file_util.h"

namespace mr::worker {

namespace {

// "[mr 12:04:05.123] " in local time, as the worker's own log stamps its lines.
std::string NotePrefix() {
  struct timeval tv {};
  ::gettimeofday(&tv, nullptr);
  struct tm tm {};
  ::localtime_r(&tv.tv_sec, &tm);
  char buf[40];
  std::snprintf(buf, sizeof buf, "[mr %02d:%02d:%02d.%03d] ", tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(tv.tv_usec / 1000));
  return buf;
}

}  // namespace

Result<std::unique_ptr<AttemptLog>> AttemptLog::Open(const std::string& path, uint64_t cap) {
  const size_t slash = path.rfind('/');
  if (slash != std::string::npos) MR_RETURN_IF_ERROR(MakeDirs(path.substr(0, slash)));
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return Status::IoError("cannot create " + path + ": " + std::strerror(errno));
  return std::unique_ptr<AttemptLog>(new AttemptLog(fd, path, cap));
}

AttemptLog::~AttemptLog() { ::close(fd_); }

bool AttemptLog::WriteLocked(std::string_view bytes, bool* failed_now) {
  if (failed_) return false;
  Status s = WriteAllToFd(fd_, bytes, path_);
  if (!s.ok()) {
    failed_ = true;
    *failed_now = true;
    return false;
  }
  size_ += bytes.size();
  return true;
}

void AttemptLog::Append(std::string_view bytes) {
  bool failed_now = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const uint64_t room = size_ < cap_ && !cut_ ? cap_ - size_ : 0;
    const std::string_view kept = bytes.substr(0, static_cast<size_t>(std::min<uint64_t>(room, bytes.size())));
    dropped_ += bytes.size() - kept.size();
    if (!kept.empty()) WriteLocked(kept, &failed_now);
    if (kept.size() < bytes.size() && !cut_) {
      cut_ = true;
      char line[160];
      std::snprintf(line, sizeof line,
                    "\n%sthis attempt's log reached its cap of %llu bytes: what the task writes from here "
                    "on is dropped\n",
                    NotePrefix().c_str(), static_cast<unsigned long long>(cap_));
      WriteLocked(line, &failed_now);
    }
  }
  if (failed_now) MR_LOG_WARN("task log {}: cannot write it, it stops here", path_);
}

void AttemptLog::Note(std::string_view text) {
  bool failed_now = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::string line = NotePrefix();
    line.append(text);
    line.push_back('\n');
    if (size_ + line.size() <= cap_ + kNoteReserveBytes) {
      WriteLocked(line, &failed_now);
    } else {
      dropped_ += line.size();
    }
  }
  if (failed_now) MR_LOG_WARN("task log {}: cannot write it, it stops here", path_);
}

uint64_t AttemptLog::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return size_;
}

uint64_t AttemptLog::dropped() const {
  std::lock_guard<std::mutex> lock(mu_);
  return dropped_;
}

AttemptLogCapture::AttemptLogCapture(AttemptLog* log)
    : copy_([log](std::string_view line) {
        if (log != nullptr) log->Note(line);
      }) {}

}  // namespace mr::worker
