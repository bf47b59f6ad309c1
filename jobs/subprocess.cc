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
#include <chrono>
#include <cerrno>
#include <cstring>
#include <optional>

extern char** environ;

namespace mr::jobs {

namespace {

Status SysError(const std::string& what) { return Status::IoError(what + ": " + std::strerror(errno)); }

void SetNonBlocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace

void LineSplitter::Add(const char* data, size_t n) {
  size_t i = 0;
  if (after_cr_ && n > 0) {
    after_cr_ = false;
    if (data[0] == '\n') i = 1;  // the '\n' of a "\r\n" split across reads
  }
  size_t start = i;
  while (i < n) {
    const char* p = static_cast<const char*>(std::memchr(data + i, '\n', n - i));
    size_t nl = p == nullptr ? n : static_cast<size_t>(p - data);
    if (crlf_) {
      const void* cr = std::memchr(data + i, '\r', nl - i);
      if (cr != nullptr) nl = static_cast<size_t>(static_cast<const char*>(cr) - data);
    }
    if (nl == n) break;
    std::string_view line(data + start, nl - start);
    if (!pending_.empty()) {
      pending_.append(line);
      on_line_(pending_);
      pending_.clear();
    } else {
      on_line_(line);
    }
    i = nl + 1;
    if (data[nl] == '\r') {
      if (i == n) {
        after_cr_ = true;
      } else if (data[i] == '\n') {
        ++i;
      }
    }
    start = i;
  }
  pending_.append(data + start, n - start);
}

void LineSplitter::Finish() {
  if (!pending_.empty()) on_line_(pending_);
  pending_.clear();
  after_cr_ = false;
}

// Reads the child's stderr line by line on a thread of its own: a line the hook takes goes no
// further; the others are copied to our stderr and their tail kept. Stops at EOF or, once
// Finish() says the child has exited, as soon as nothing more is waiting, or once it has read
// what was in the pipe at that moment (the child's last words) and kDrainAfterExitMs have
// passed: a grandchild that keeps stderr open, and writing, must not hold the task.
class ChildProcess::StderrPump {
 public:
  StderrPump(int fd, const FilterHooks* hooks) : fd_(fd), hooks_(hooks), thread_([this] { Run(); }) {}
  // Ends the pump; returns the tail (StderrTail of what was kept).
  std::string Finish() {
    stop_.store(true);
    thread_.join();
    ::close(fd_);
    return StderrTail(kept_);
  }

 private:
  static constexpr int kDrainAfterExitMs = 200;
  static constexpr size_t kMaxLineBytes = 64 << 10;  // longer: passed on in pieces, never a hook's

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
      if (stop_by && left_at_exit == 0 && std::chrono::steady_clock::now() >= *stop_by) break;
      struct pollfd p{fd_, POLLIN, 0};
      int ready = ::poll(&p, 1, kFilterPollMs);
      if (ready < 0 && errno != EINTR) break;
      if (ready <= 0) {
        if (stop_.load()) break;
        continue;
      }
      ssize_t n = ::read(fd_, buf.data(), buf.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      if (stop_by) left_at_exit -= std::min(left_at_exit, static_cast<size_t>(n));
      if (hooks_->progress) hooks_->progress();
      Add(std::string_view(buf.data(), static_cast<size_t>(n)));
    }
    // A last line without '\n' is still a line, passed on as written.
    if (!pending_.empty()) Line(pending_, false);
    pending_.clear();
  }

  void Add(std::string_view data) {
    if (long_line_) {
      const size_t nl = data.find('\n');
      Pass(data.substr(0, nl == std::string_view::npos ? data.size() : nl + 1), false);
      if (nl == std::string_view::npos) return;
      long_line_ = false;
      data.remove_prefix(nl + 1);
    }
    size_t searched = pending_.size();
    pending_.append(data);
    size_t start = 0, nl;
    while ((nl = pending_.find('\n', std::max(start, searched))) != std::string::npos) {
      Line(std::string_view(pending_).substr(start, nl - start), true);
      start = nl + 1;
    }
    pending_.erase(0, start);
    if (pending_.size() > kMaxLineBytes) {
      // A line this long is not a reporter line: pass it on in pieces as it comes.
      Pass(pending_, false);
      pending_.clear();
      long_line_ = true;
    }
  }

  void Line(std::string_view line, bool newline) {
    if (hooks_->stderr_line && hooks_->stderr_line(line)) return;
    Pass(line, newline);
  }

  // Copies text (plus a '\n' when `newline`) to our stderr and keeps it for the tail.
  void Pass(std::string_view text, bool newline) {
    kept_.append(text);
    if (newline) kept_.push_back('\n');
    // Twice the tail's size, so the cut can still find a line start inside the last
    // kStderrTailBytes.
    if (kept_.size() > 2 * kStderrTailBytes) kept_.erase(0, kept_.size() - 2 * kStderrTailBytes);
    WriteOut(text);
    if (newline) WriteOut("\n");
    if (hooks_->stderr_copy) {
      hooks_->stderr_copy(text);
      if (newline) hooks_->stderr_copy("\n");
    }
  }
  static void WriteOut(std::string_view s) {
    const char* data = s.data();
    size_t n = s.size();
    while (n > 0) {
      ssize_t w = ::write(STDERR_FILENO, data, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return;  // our stderr is gone: the tail is still kept
      data += w;
      n -= static_cast<size_t>(w);
    }
  }

  int fd_;
  const FilterHooks* hooks_;
  std::string pending_;   // the pump thread's: the start of a line not yet ended
  bool long_line_ = false;
  std::atomic<bool> stop_{false};
  std::string kept_;  // the pump thread's until Finish joins it
  std::thread thread_;
};

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
  for (int lines = 0; lines < kStderrTailLines && start > 0;) {
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

ChildProcess::ChildProcess(ChildSpec spec, FilterHooks hooks, LineFn on_line, bool crlf)
    : spec_(std::move(spec)), hooks_(std::move(hooks)), lines_(std::move(on_line), crlf) {}

Result<std::unique_ptr<ChildProcess>> ChildProcess::Start(const ChildSpec& spec, FilterHooks hooks, LineFn on_line,
                                                          bool crlf) {
  if (spec.argv.empty()) return Status::InvalidArgument("no program to run");
  std::unique_ptr<ChildProcess> c(new ChildProcess(spec, std::move(hooks), std::move(on_line), crlf));
  // A socket (not a pipe) carries stdin so that MSG_NOSIGNAL turns a vanished reader into
  // EPIPE instead of SIGPIPE, without touching the process-wide signal disposition.
  int in[2], out[2], err[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0) return SysError("socketpair");
  if (::pipe2(out, O_CLOEXEC) != 0) {
    Status s = SysError("pipe");
    for (int fd : {in[0], in[1]}) ::close(fd);
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
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, spec.cwd.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group: a cancel kills it and its children
  std::vector<std::string> args = spec.argv, env = spec.env;
  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  char** child_env = spec.env.empty() ? environ : envp.data();
  const bool search = spec.argv[0].find('/') == std::string::npos;
  int rc = search ? posix_spawnp(&c->pid_, argv[0], &fa, &attr, argv.data(), child_env)
                  : posix_spawn(&c->pid_, argv[0], &fa, &attr, argv.data(), child_env);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(in[1]);
  ::close(out[1]);
  ::close(err[1]);
  if (rc != 0) {
    for (int fd : {in[0], out[0], err[0]}) ::close(fd);
    c->pid_ = -1;
    return Status::IoError("cannot start '" + spec.name + "': " + std::strerror(rc));
  }
  c->reaped_ = false;  // from here on the child is ours to reap
  c->in_fd_ = in[0];
  c->out_fd_ = out[0];
  SetNonBlocking(c->in_fd_);
  SetNonBlocking(c->out_fd_);
  c->err_ = std::make_unique<StderrPump>(err[0], &c->hooks_);
  return c;
}

ChildProcess::~ChildProcess() { (void)Reap(true); }

void ChildProcess::NotePeak() {
  peak_buffered_ = std::max(peak_buffered_, in_buf_.size() - in_pos_ + lines_.pending());
}

Status ChildProcess::Write(std::string_view bytes) {
  if (reaped_) return exit_status_.ok() ? Status::FailedPrecondition("'" + spec_.name + "' has ended") : exit_status_;
  if (in_fd_ < 0) {  // the child closed its stdin: it takes nothing more
    taken_ += bytes.size();
    return Status::Ok();
  }
  in_buf_.append(bytes);
  NotePeak();
  if (in_buf_.size() - in_pos_ < kInputBufferBytes) return Status::Ok();
  return Pump(false);
}

Status ChildProcess::Pump(bool to_eof) {
  for (;;) {
    if (hooks_.cancelled && hooks_.cancelled()) {
      (void)Reap(true);
      return Status::Aborted("child program cancelled");
    }
    const bool want_write = in_fd_ >= 0 && in_pos_ < in_buf_.size();
    if (!to_eof && !want_write) return Status::Ok();
    if (to_eof && out_eof_) return Status::Ok();
    struct pollfd fds[2];
    int n = 0, in_slot = -1, out_slot = -1;
    if (want_write) {
      in_slot = n;
      fds[n++] = {in_fd_, POLLOUT, 0};
    }
    if (!out_eof_) {
      out_slot = n;
      fds[n++] = {out_fd_, POLLIN, 0};
    }
    if (n == 0) return Status::Ok();
    int ready = ::poll(fds, static_cast<nfds_t>(n), kFilterPollMs);
    if (ready < 0 && errno != EINTR) return SysError("poll on child");
    if (ready <= 0) continue;
    if (out_slot >= 0 && fds[out_slot].revents != 0) ReadStdout();
    if (in_slot >= 0 && fds[in_slot].revents != 0) WriteStdin();
  }
}

void ChildProcess::ReadStdout() {
  char buf[64 * 1024];
  ssize_t n = ::read(out_fd_, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (n <= 0) {
    out_eof_ = true;
    return;
  }
  if (hooks_.progress) hooks_.progress();
  lines_.Add(buf, static_cast<size_t>(n));
  NotePeak();
}

void ChildProcess::WriteStdin() {
  const size_t chunk = std::min<size_t>(in_buf_.size() - in_pos_, 1u << 20);
  ssize_t n = ::send(in_fd_, in_buf_.data() + in_pos_, chunk, MSG_NOSIGNAL | MSG_DONTWAIT);
  if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) return;
  if (n <= 0) {
    // The child stopped reading (EPIPE, ECONNRESET): what it did not take is dropped.
    taken_ += in_buf_.size() - in_pos_;
    in_buf_.clear();
    in_pos_ = 0;
    CloseStdin();
    return;
  }
  in_pos_ += static_cast<size_t>(n);
  taken_ += static_cast<uint64_t>(n);
  if (in_pos_ == in_buf_.size()) {
    in_buf_.clear();
    in_pos_ = 0;
  }
  if (hooks_.progress) hooks_.progress();
}

void ChildProcess::CloseStdin() {
  if (in_fd_ < 0) return;
  ::shutdown(in_fd_, SHUT_RDWR);
  ::close(in_fd_);
  in_fd_ = -1;
}

Status ChildProcess::Finish() {
  if (reaped_) return exit_status_;
  MR_RETURN_IF_ERROR(Pump(false));
  if (in_fd_ >= 0) ::shutdown(in_fd_, SHUT_WR);
  MR_RETURN_IF_ERROR(Pump(true));
  lines_.Finish();
  return Reap(false);
}

Status ChildProcess::Reap(bool kill) {
  if (reaped_) return exit_status_;
  reaped_ = true;
  if (kill && pid_ > 0) ::kill(-pid_, SIGKILL);
  CloseStdin();
  if (out_fd_ >= 0) {
    ::close(out_fd_);
    out_fd_ = -1;
  }
  int status = 0;
  // Waits without blocking, so that a cancel still ends a child that closed its stdout but
  // runs on.
  for (int polls = 0;; ++polls) {
    pid_t r = ::waitpid(pid_, &status, kill ? 0 : WNOHANG);
    if (r == pid_) break;
    if (r < 0 && errno != EINTR) {
      exit_status_ = SysError("waitpid");
      break;
    }
    if (r == 0) {
      if (hooks_.cancelled && hooks_.cancelled()) {
        kill = true;
        ::kill(-pid_, SIGKILL);
        continue;
      }
      ::usleep(polls < 100 ? 1000 : 10000);
    }
  }
  std::string tail = err_ ? err_->Finish() : std::string();
  err_.reset();
  if (hooks_.stderr_tail) hooks_.stderr_tail(std::move(tail));
  if (!exit_status_.ok()) return exit_status_;
  if (kill) {
    exit_status_ = Status::Aborted("child program cancelled");
  } else if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || spec_.nonzero_exit_ok)) {
    exit_status_ = Status::Ok();
  } else if (WIFSIGNALED(status)) {
    exit_status_ = spec_.nonzero_exit_ok ? Status::Ok()
                                         : Status::FailedPrecondition("command '" + spec_.name + "' killed by signal " +
                                                                      std::to_string(WTERMSIG(status)));
  } else {
    exit_status_ = Status::FailedPrecondition("command '" + spec_.name + "' exited with code " +
                                              std::to_string(WEXITSTATUS(status)));
  }
  return exit_status_;
}

Status RunFilter(const std::string& command, std::string_view input,
                 const std::function<void(std::string_view line)>& on_line, const FilterHooks& hooks) {
  ChildSpec spec;
  spec.argv = {"/bin/sh", "-c", command};
  spec.name = command;
  MR_ASSIGN_OR_RETURN(std::unique_ptr<ChildProcess> child, ChildProcess::Start(spec, hooks, on_line));
  const double total = static_cast<double>(input.size());
  double reported = 0;  // `fed` is told only of a rise
  auto fed = [&](double share) {
    if (hooks.fed && share > reported) hooks.fed(reported = share);
  };
  while (!input.empty()) {
    const size_t n = std::min(input.size(), ChildProcess::kInputBufferBytes);
    MR_RETURN_IF_ERROR(child->Write(input.substr(0, n)));
    input.remove_prefix(n);
    fed(std::min(1.0, static_cast<double>(child->bytes_taken()) / total));
  }
  Status s = child->Finish();
  if (total > 0) fed(1.0);
  return s;
}

}  // namespace mr::jobs
