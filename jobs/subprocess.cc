#include "jobs/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
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

Status RunFilter(const std::string& command, std::string_view input,
                 const std::function<void(std::string_view line)>& on_line, const FilterHooks& hooks) {
  int in[2], out[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0) return SysError("socketpair");
  if (::pipe2(out, O_CLOEXEC) != 0) {
    Status s = SysError("pipe");
    ::close(in[0]);
    ::close(in[1]);
    return s;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[1], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
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
  if (rc != 0) {
    ::close(in[0]);
    ::close(out[0]);
    return Status::IoError("cannot start '" + command + "': " + std::strerror(rc));
  }
  std::thread writer(FeedAndClose, in[0], input, &hooks);
  Status read_status = DrainLines(out[0], pid, in[0], hooks, on_line);
  ::close(out[0]);
  writer.join();
  ::close(in[0]);
  Status exit_status = WaitChild(pid, command);
  if (read_status.code() == StatusCode::kAborted) return read_status;
  return exit_status.ok() ? read_status : exit_status;
}

}  // namespace mr::jobs
