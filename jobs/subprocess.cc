#include "jobs/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

extern char** environ;

namespace mr::jobs {

namespace {

Status SysError(const std::string& what) {
  return Status::IoError(what + ": " + std::strerror(errno));
}

// Writes all of `input` to fd and then ends the child's stdin (the caller closes fd
// after joining, so a cancel can always shut it down safely). A socket (not a pipe) carries stdin
// so that MSG_NOSIGNAL turns a vanished reader into EPIPE instead of SIGPIPE,
// without touching the process-wide signal disposition. A cancel shuts the socket
// down, which ends a blocked send.
void FeedAndClose(int fd, std::string_view input, const FilterHooks* hooks) {
  const double total = static_cast<double>(input.size());
  while (!input.empty()) {
    size_t chunk = std::min<size_t>(input.size(), 1u << 20);
    ssize_t n = ::send(fd, input.data(), chunk, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    input.remove_prefix(static_cast<size_t>(n));
    if (hooks->progress) hooks->progress();
    if (hooks->fed) hooks->fed(1 - static_cast<double>(input.size()) / total);
  }
  ::shutdown(fd, SHUT_WR);
}

// Splits what arrives into lines. Only the new bytes are searched for '\n', so a line
// of any length costs time linear in its size.
class LineSplitter {
 public:
  explicit LineSplitter(const std::function<void(std::string_view)>& on_line) : on_line_(on_line) {}
  void Add(const char* data, size_t n) {
    size_t searched = pending_.size();
    pending_.append(data, n);
    size_t start = 0, nl;
    while ((nl = pending_.find('\n', std::max(start, searched))) != std::string::npos) {
      on_line_(std::string_view(pending_).substr(start, nl - start));
      start = nl + 1;
    }
    pending_.erase(0, start);
  }
  void Finish() {
    if (!pending_.empty()) on_line_(pending_);
    pending_.clear();
  }

 private:
  const std::function<void(std::string_view)>& on_line_;
  std::string pending_;
};

// Reads the child's stdout to EOF. Returns Aborted (having killed the child's group and
// shut `in_fd` down) once hooks.cancelled() says so.
Status DrainLines(int fd, pid_t pgid, int in_fd, const FilterHooks& hooks,
                  const std::function<void(std::string_view)>& on_line) {
  LineSplitter lines(on_line);
  std::vector<char> buf(64 * 1024);
  for (;;) {
    if (hooks.cancelled && hooks.cancelled()) {
      ::kill(-pgid, SIGKILL);
      ::shutdown(in_fd, SHUT_RDWR);
      return Status::Aborted("filter cancelled");
    }
    struct pollfd p{fd, POLLIN, 0};
    int ready = ::poll(&p, 1, kFilterPollMs);
    if (ready < 0 && errno != EINTR) return SysError("poll on child stdout");
    if (ready <= 0) continue;
    ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return SysError("reading child stdout");
    if (n == 0) break;
    if (hooks.progress) hooks.progress();
    lines.Add(buf.data(), static_cast<size_t>(n));
  }
  lines.Finish();
  return Status::Ok();
}

// Copies the child's stderr to ours and keeps its last bytes. Stops at EOF or, once
// Finish() says the child has exited, as soon as nothing more is waiting, or once it has
// read what was in the pipe at that moment (the child's last words) and kDrainAfterExitMs
// have passed: a grandchild that keeps stderr open, and writing, must not hold the task.
class StderrPump {
 public:
  explicit StderrPump(int fd) : fd_(fd), thread_([this] { Run(); }) {}
  // Ends the pump; returns the tail (StderrTail of what was kept).
  std::string Finish() {
    stop_.store(true);
    thread_.join();
    ::close(fd_);
    return StderrTail(kept_);
  }

 private:
  static constexpr int kDrainAfterExitMs = 200;

  void Run() {
    std::vector<char> buf(16 * 1024);
    std::optional<std::chrono::steady_clock::time_point> stop_by;
    size_t left_at_exit = 0;  // bytes in the pipe when the child had exited, still to read
    for (;;) {
      if (!stop_by && stop_.load()) {
        stop_by = std::chrono::steady_clock::now() + std::chrono::milliseconds(kDrainAfterExitMs);
        int pending = 0;
        if (::ioctl(fd_, FIONREAD, &pending) == 0 && pending > 0) left_at_exit = static_cast<size_t>(pending);
      }
      if (stop_by && left_at_exit == 0 && std::chrono::steady_clock::now() >= *stop_by) return;
      struct pollfd p{fd_, POLLIN, 0};
      int ready = ::poll(&p, 1, kFilterPollMs);
      if (ready < 0 && errno != EINTR) return;
      if (ready <= 0) {
        if (stop_.load()) return;
        continue;
      }
      ssize_t n = ::read(fd_, buf.data(), buf.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;
      if (stop_by) left_at_exit -= std::min(left_at_exit, static_cast<size_t>(n));
      Keep(buf.data(), static_cast<size_t>(n));
      PassThrough(buf.data(), static_cast<size_t>(n));
    }
  }
  // Twice the tail's size, so the cut can still find a line start inside the last
  // kStderrTailBytes.
  void Keep(const char* data, size_t n) {
    kept_.append(data, n);
    if (kept_.size() > 2 * kStderrTailBytes) kept_.erase(0, kept_.size() - 2 * kStderrTailBytes);
  }
  static void PassThrough(const char* data, size_t n) {
    while (n > 0) {
      ssize_t w = ::write(STDERR_FILENO, data, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return;  // our stderr is gone: the tail is still kept
      data += w;
      n -= static_cast<size_t>(w);
    }
  }

  int fd_;
  std::atomic<bool> stop_{false};
  std::string kept_;  // the pump thread's until Finish joins it
  std::thread thread_;
};

Status WaitChild(pid_t pid, const std::string& command) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return SysError("waitpid");
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return Status::Ok();
  if (WIFSIGNALED(status)) {
    return Status::FailedPrecondition("command '" + command + "' killed by signal " +
                                      std::to_string(WTERMSIG(status)));
  }
  return Status::FailedPrecondition("command '" + command + "' exited with code " +
                                    std::to_string(WEXITSTATUS(status)));
}

}  // namespace

std::string StderrTail(std::string_view text) {
  if (text.size() > kStderrTailBytes) {
    text.remove_prefix(text.size() - kStderrTailBytes);
    // Start at a whole line when one begins inside the window.
    if (size_t nl = text.find('\n'); nl != std::string_view::npos && nl + 1 < text.size()) text.remove_prefix(nl + 1);
  }
  // The last kStderrTailLines lines: walk back over that many line ends (a trailing
  // '\n' ends the last line, it does not start an empty one).
  size_t end = text.size();
  if (end > 0 && text[end - 1] == '\n') --end;
  size_t start = end;
  for (int lines = 0; lines < kStderrTailLines && start > 0; ) {
    size_t nl = text.rfind('\n', start - 1);
    if (nl == std::string_view::npos) {
      start = 0;
      break;
    }
    if (++lines == kStderrTailLines) {
      start = nl + 1;
      break;
    }
    start = nl;
  }
  return std::string(text.substr(start));
}

Status RunFilter(const std::string& command, std::string_view input,
                 const std::function<void(std::string_view line)>& on_line, const FilterHooks& hooks) {
  int in[2], out[2], err[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0) return SysError("socketpair");
  if (::pipe2(out, O_CLOEXEC) != 0) {
    Status s = SysError("pipe");
    ::close(in[0]);
    ::close(in[1]);
    return s;
  }
  if (::pipe2(err, O_CLOEXEC) != 0) {
    Status s = SysError("pipe");
    for (int fd : {in[0], in[1], out[0], out[1]}) ::close(fd);
    return s;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[1], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group: a cancel kills it and its children
  std::string sh = "/bin/sh", dash_c = "-c", cmd = command;
  char* argv[] = {sh.data(), dash_c.data(), cmd.data(), nullptr};
  pid_t pid = 0;
  int rc = posix_spawn(&pid, "/bin/sh", &fa, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(in[1]);
  ::close(out[1]);
  ::close(err[1]);
  if (rc != 0) {
    ::close(in[0]);
    ::close(out[0]);
    ::close(err[0]);
    return Status::IoError("cannot start '" + command + "': " + std::strerror(rc));
  }
  StderrPump pump(err[0]);
  std::thread writer(FeedAndClose, in[0], input, &hooks);
  Status read_status = DrainLines(out[0], pid, in[0], hooks, on_line);
  ::close(out[0]);
  writer.join();
  ::close(in[0]);
  Status exit_status = WaitChild(pid, command);
  std::string tail = pump.Finish();
  if (hooks.stderr_tail) hooks.stderr_tail(std::move(tail));
  if (read_status.code() == StatusCode::kAborted) return read_status;
  return exit_status.ok() ? read_status : exit_status;
}

}  // namespace mr::jobs
