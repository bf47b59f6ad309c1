#include "jobs/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

extern char** environ;

namespace mr::jobs {

namespace {

Status SysError(const std::string& what) {
  return Status::IoError(what + ": " + std::strerror(errno));
}

// Writes all of `input` to fd and closes it. A socket (not a pipe) carries stdin
// so that MSG_NOSIGNAL turns a vanished reader into EPIPE instead of SIGPIPE,
// without touching the process-wide signal disposition.
void FeedAndClose(int fd, std::string_view input) {
  while (!input.empty()) {
    ssize_t n = ::send(fd, input.data(), input.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    input.remove_prefix(static_cast<size_t>(n));
  }
  ::close(fd);
}

bool Cancelled(const std::atomic<bool>* cancel) { return cancel != nullptr && cancel->load(); }

// Until EOF, or Aborted once *cancel is set (checked every kCancelPollMs while the child
// is silent).
Status DrainLines(int fd, const std::function<void(std::string_view)>& on_line, const std::atomic<bool>* cancel) {
  std::string pending;
  char buf[64 * 1024];
  for (;;) {
    if (Cancelled(cancel)) return Status::Aborted("cancelled");
    pollfd p{fd, POLLIN, 0};
    int ready = ::poll(&p, 1, kCancelPollMs);
    if (ready < 0 && errno != EINTR) return SysError("polling child stdout");
    if (ready <= 0) continue;
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return SysError("reading child stdout");
    if (n == 0) break;
    pending.append(buf, static_cast<size_t>(n));
    size_t start = 0, nl;
    while ((nl = pending.find('\n', start)) != std::string::npos) {
      on_line(std::string_view(pending).substr(start, nl - start));
      start = nl + 1;
    }
    pending.erase(0, start);
  }
  if (!pending.empty()) on_line(pending);
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
                 const std::function<void(std::string_view line)>& on_line, const std::atomic<bool>* cancel) {
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
  std::string sh = "/bin/sh", dash_c = "-c", cmd = command;
  char* argv[] = {sh.data(), dash_c.data(), cmd.data(), nullptr};
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);  // a group of its own: pgid = pid
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
  std::thread writer(FeedAndClose, in[0], input);
  Status read_status = DrainLines(out[0], on_line, cancel);
  if (read_status.code() == StatusCode::kAborted) {
    ::kill(-pid, SIGKILL);  // the shell and whatever it started; the writer then sees EPIPE
  }
  ::close(out[0]);
  writer.join();
  Status exit_status = WaitChild(pid, command);
  if (read_status.code() == StatusCode::kAborted) {
    return Status::Aborted("command '" + command + "' cancelled");
  }
  return exit_status.ok() ? read_status : exit_status;
}

}  // namespace mr::jobs
