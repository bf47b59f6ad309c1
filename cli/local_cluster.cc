#include "cli/local_cluster.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "cli/command.h"
#include "common/clock.h"
#include "common/file_util.h"

namespace mr::cli {

namespace {
void SleepSeconds(double s) {
  struct timespec ts{static_cast<time_t>(s), static_cast<long>((s - static_cast<time_t>(s)) * 1e9)};
  nanosleep(&ts, nullptr);
}

// A zombie has exited: a detached cluster's processes are not our children, and whoever
// reaps them (init, or a container's pid 1 that reaps only now and then) may take its time.
bool Alive(pid_t pid) {
  if (kill(pid, 0) != 0) return false;
  auto stat = ReadFileToString("/proc/" + std::to_string(pid) + "/stat");
  if (!stat.ok()) return true;
  auto paren = stat->rfind(')');  // the state letter follows the parenthesised command name
  return paren == std::string::npos || paren + 2 >= stat->size() || (*stat)[paren + 2] != 'Z';
}

// An fd that becomes readable when pid exits (a pidfd), or -1 where there is none (an
// old kernel, a pid already gone): the waits below then poll every 20 ms.
// (The system call directly: glibc 2.36's <sys/pidfd.h> lacks C linkage for C++.)
int ExitFd(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

// The child of a fork without exec: puts the process in the state exec would have left it in
// (caught signals back to their defaults, no descriptor beyond 0-2), then runs the daemon's
// command line through the command table, as `mr ARGS...` would, and exits with its status.
[[noreturn]] void RunWithoutExec(std::vector<char*>& argv) {
  for (int sig = 1; sig < NSIG; ++sig) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
      ::signal(sig, SIG_DFL);
    }
  }
  ::close_range(3, ~0U, 0);
  std::exit(Main(static_cast<int>(argv.size()) - 1, argv.data()));
}

// Waits up to `seconds` for exit_fd to become readable (or, without one, 20 ms at most).
// True if it did: the caller checks what it waits for at once instead of at a timer.
bool WaitReadable(int exit_fd, int other_fd, double seconds) {
  if (exit_fd < 0 && other_fd < 0) {
    SleepSeconds(std::min(seconds, 0.02));
    return false;
  }
  struct pollfd p[2] = {{exit_fd, POLLIN, 0}, {other_fd, POLLIN, 0}};
  const int ms = static_cast<int>(std::ceil(std::max(0.0, seconds) * 1000));
  return ::poll(p, 2, exit_fd < 0 ? std::min(ms, 20) : ms) > 0;
}

// Waits for pid to exit (reaping it if it is our child). True if it exited. Woken by the
// exit itself (pidfd), not by a timer.
bool WaitExit(pid_t pid, double timeout) {
  double deadline = MonotonicSeconds() + timeout;
  int fd = ExitFd(pid);
  bool exited = false;
  while (!exited && MonotonicSeconds() < deadline) {
    int status = 0;
    pid_t r = waitpid(pid, &status, WNOHANG);
    exited = r == pid || (r < 0 && !Alive(pid));
    if (exited) break;
    // Readable yet not seen as exited (a detached process not yet a zombie for /proc):
    // from now on a short poll.
    if (WaitReadable(fd, -1, deadline - MonotonicSeconds()) && fd >= 0) {
      ::close(fd);
      fd = -1;
    }
  }
  if (fd >= 0) ::close(fd);
  return exited;
}

// SIGTERM, and SIGKILL for those still running 5 s later. Returns those that had not
// exited 2 s after that.
std::vector<pid_t> Terminate(const std::vector<pid_t>& pids) {
  for (pid_t p : pids) kill(p, SIGTERM);
  std::vector<pid_t> alive;
  for (pid_t p : pids) {
    if (!WaitExit(p, 5.0)) {
      kill(p, SIGKILL);
      if (!WaitExit(p, 2.0)) alive.push_back(p);
    }
  }
  return alive;
}
}  // namespace

bool WaitForPath(const std::string& path, double timeout_seconds, int exit_fd) {
  const double deadline = MonotonicSeconds() + timeout_seconds;
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  int watch = ::inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
  if (watch >= 0 && ::inotify_add_watch(watch, dir.c_str(), IN_MOVED_TO | IN_CREATE) < 0) {
    ::close(watch);
    watch = -1;
  }
  bool exists = PathExists(path);  // after the watch is set: no rename slips between
  while (!exists) {
    const double left = deadline - MonotonicSeconds();
    if (left <= 0) break;
    struct pollfd p[2] = {{watch, POLLIN, 0}, {exit_fd, POLLIN, 0}};
    const int ms = static_cast<int>(std::ceil(left * 1000));
    ::poll(p, 2, watch < 0 ? std::min(ms, 20) : ms);
    if (exit_fd >= 0 && (p[1].revents & (POLLIN | POLLHUP | POLLERR)) != 0) break;
    if (watch >= 0) {
      char events[4096];
      while (::read(watch, events, sizeof events) > 0) {
      }
    }
    exists = PathExists(path);
  }
  if (watch >= 0) ::close(watch);
  return exists;
}

bool SingleThreaded() {
  auto tasks = ListDir("/proc/self/task");
  return tasks.ok() && tasks->size() == 1;
}

std::string SelfExe() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "mr";
  return std::string(buf, static_cast<size_t>(n));
}

std::string StartupError(const std::string& log) {
  // A daemon that fails at start prints "mr: REASON" last; info lines before it (recovery,
  // ...) are not the reason. Without such a line, the last line of the log.
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < log.size()) {
    size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    if (end > start) lines.push_back(log.substr(start, end - start));
    start = end + 1;
  }
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    if (it->rfind("mr: master: ", 0) == 0) return it->substr(12);  // a bad flag (UsageError)
    if (it->rfind("mr: ", 0) == 0) return it->substr(4);
  }
  return lines.empty() ? std::string("(empty log)") : lines.back();
}

Status EnterNetnsFd(int fd) {
  if (::setns(fd, CLONE_NEWNET) != 0) {
    return Status(errno == EPERM ? StatusCode::kPermissionDenied : StatusCode::kInternal,
                  std::string("setns: ") + std::strerror(errno));
  }
  return Status::Ok();
}

Status EnterNetns(const std::string& name) {
  const std::string path = "/run/netns/" + name;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::NotFound("no network namespace " + name + " (" + path + ": " + std::strerror(errno) + ")");
  Status s = EnterNetnsFd(fd);
  ::close(fd);
  return s.ok() ? s : s.WithContext("network namespace " + name);
}

int CurrentNetnsFd() { return ::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC); }

LocalCluster::~LocalCluster() {
  if (!options_.detached) Stop();
}

Result<pid_t> LocalCluster::Spawn(const std::vector<std::string>& args, const std::string& log_path,
                                  const std::string& netns) {
  std::string exe = SelfExe();
  std::vector<char*> argv;
  argv.push_back(exe.data());
  std::vector<std::string> copy = args;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  // The host's namespace is opened before the fork: the child only calls setns.
  int netns_fd = -1;
  if (!netns.empty()) {
    const std::string path = "/run/netns/" + netns;
    netns_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (netns_fd < 0) return Status::NotFound("no network namespace " + netns + " (" + path + ": " + std::strerror(errno) + ")");
  }
  const bool without_exec = ForkWithoutExec();
  // Nothing of ours buffered twice: a child that does not exec flushes its copy at exit.
  if (without_exec) std::fflush(nullptr);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid != 0 && netns_fd >= 0) ::close(netns_fd);
  if (pid < 0) return Status::Internal(std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    if (!options_.detached) {
      prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (getppid() != parent) _exit(1);
      // A process group of its own: Ctrl-C on the terminal reaches `mr run` alone, which
      // kills its job while the daemons still run, then stops them (cli/cmd_run.cc).
      setpgid(0, 0);
    }
    int fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
    }
    if (devnull >= 0) dup2(devnull, STDIN_FILENO);
    if (netns_fd >= 0 && ::setns(netns_fd, CLONE_NEWNET) != 0) {  // no allocation after fork
      static const char kMessage[] = "mr: cannot enter the host's network namespace (setns)\n";
      (void)!::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
      _exit(126);
    }
    if (without_exec) RunWithoutExec(argv);
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

bool LocalCluster::ForkWithoutExec() const {
  return options_.fork_without_exec && !options_.detached && SingleThreaded();
}

Status LocalCluster::Start(double timeout_seconds) {
  if (!options_.detached) return StartDaemons(timeout_seconds);
  // Detached: a launcher child opens one new session, so the daemons outlive the
  // terminal, and starts every daemon inside it. One session is one scheduling
  // autogroup: the kernel then weighs all the cluster's threads against each other by
  // their nice values (shuffle threads over task threads, docs/shuffle.md "CPU
  // priority"), as it would on each machine of a real cluster. With a session per
  // daemon, each worker competes as a whole and one worker's maps stall another's
  // shuffle server. The launcher reports the outcome through a pipe ("<code>\n<master
  // address or error>") and exits.
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Status::Internal(std::string("pipe failed: ") + std::strerror(errno));
  pid_t launcher = fork();
  if (launcher < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return Status::Internal(std::string("fork failed: ") + std::strerror(errno));
  }
  if (launcher == 0) {
    ::close(fds[0]);
    setsid();
    Status s = StartDaemons(timeout_seconds);
    (void)WriteAllToFd(fds[1], std::to_string(static_cast<int>(s.code())) + "\n" + (s.ok() ? address_ + "\n" + http_address_ : s.message()),
                       "launcher pipe");
    _exit(s.ok() ? 0 : 1);
  }
  ::close(fds[1]);
  std::string reply;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n > 0) {
      reply.append(buf, static_cast<size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(fds[0]);
  while (waitpid(launcher, nullptr, 0) < 0 && errno == EINTR) {
  }
  const size_t nl = reply.find('\n');
  if (nl == std::string::npos) return Status::Internal("cluster launcher failed");
  const auto code = static_cast<StatusCode>(std::atoi(reply.substr(0, nl).c_str()));
  if (code != StatusCode::kOk) return Status(code, reply.substr(nl + 1));
  // "<address>\n<http address or nothing>"
  const std::string rest = reply.substr(nl + 1);
  const size_t nl2 = rest.find('\n');
  address_ = rest.substr(0, nl2);
  http_address_ = nl2 == std::string::npos ? std::string() : rest.substr(nl2 + 1);
  return Status::Ok();
}

Status LocalCluster::StartDaemons(double timeout_seconds) {
  const std::string& d = options_.dir;
  MR_RETURN_IF_ERROR(MakeDirs(d));
  std::string addr_file = JoinPath(d, "master.addr");
  (void)RemoveAll(addr_file);
  const std::string http_file = JoinPath(d, "http.addr");
  (void)RemoveAll(http_file);
  std::vector<std::string> margs = {"master", "--listen", options_.master_listen, "--state", JoinPath(d, "state"),
                                    "--addr-file", addr_file, "--http-addr-file", http_file};
  margs.insert(margs.end(), options_.master_args.begin(), options_.master_args.end());
  MR_ASSIGN_OR_RETURN(pid_t mpid, Spawn(margs, JoinPath(d, "master.log"), options_.master_netns));
  pids_.push_back(mpid);
  if (options_.detached) MR_RETURN_IF_ERROR(WriteFileAtomically(JoinPath(d, "master.pid"), std::to_string(mpid) + "\n"));
  // Worker i, its files named WorkerFileName(i), started with `head` (how it finds the master).
  // With ordered_workers each is waited for until it registered, so worker-I is the master's wI.
  std::vector<pid_t> workers;
  double workers_deadline = 0;
  auto spawn_worker = [&](int i, std::vector<std::string> wargs) -> Status {
    const std::string name = WorkerFileName(i);
    wargs.insert(wargs.end(), {"--work-dir", JoinPath(d, name)});
    wargs.insert(wargs.end(), options_.worker_args.begin(), options_.worker_args.end());
    if (static_cast<size_t>(i) < options_.per_worker_args.size()) {
      const auto& own = options_.per_worker_args[i];
      wargs.insert(wargs.end(), own.begin(), own.end());
    }
    const std::string log = JoinPath(d, name + ".log");
    const auto earlier = ReadFileToString(log);  // a resumed cluster appends to its logs
    const std::string netns = static_cast<size_t>(i) < options_.worker_netns.size() ? options_.worker_netns[i] : "";
    MR_ASSIGN_OR_RETURN(pid_t wpid, Spawn(wargs, log, netns));
    pids_.push_back(wpid);
    workers.push_back(wpid);
    if (options_.detached) {
      MR_RETURN_IF_ERROR(WriteFileAtomically(JoinPath(d, name + ".pid"), std::to_string(wpid) + "\n"));
    }
    if (options_.ordered_workers) WaitForRegistration(wpid, log, earlier.ok() ? earlier->size() : 0, workers_deadline);
    return Status::Ok();
  };
  // Unordered, the workers start beside the master (their process start overlaps its own) and
  // wait for its address file themselves (mr worker --master-addr-file).
  if (!options_.ordered_workers) {
    for (int i = 0; i < options_.workers; ++i) {
      MR_RETURN_IF_ERROR(spawn_worker(i, {"worker", "--master-addr-file", addr_file}));
    }
  }
  // A master that fails at start takes its waiting workers with it.
  auto fail = [&](Status why) {
    Terminate(workers);
    for (int i = 0; i < options_.workers; ++i) (void)RemoveAll(JoinPath(d, WorkerFileName(i) + ".pid"));
    pids_.clear();
    (void)RemoveAll(JoinPath(d, "master.pid"));  // no stale pid for a later `cluster stop`
    return why;
  };
  const double deadline = MonotonicSeconds() + timeout_seconds;
  const int master_exit = ExitFd(mpid);
  // Without a pidfd, a 20 ms wait at a time, so a master that died is seen.
  auto left = [&] { return std::max(0.0, std::min(deadline - MonotonicSeconds(), master_exit >= 0 ? 1e9 : 0.02)); };
  while (!WaitForPath(addr_file, left(), master_exit)) {
    int status = 0;
    if (waitpid(mpid, &status, WNOHANG) == mpid) {
      if (master_exit >= 0) ::close(master_exit);
      auto log = ReadFileToString(JoinPath(d, "master.log"));
      return fail(Status::Internal("the master exited at start: " + (log.ok() ? StartupError(*log) : std::string("(no log)"))));
    }
    if (MonotonicSeconds() > deadline) {
      if (master_exit >= 0) ::close(master_exit);
      Terminate({mpid});
      return fail(Status::Unavailable("master did not start within the timeout (log: " + JoinPath(d, "master.log") + ")"));
    }
  }
  if (master_exit >= 0) ::close(master_exit);
  MR_ASSIGN_OR_RETURN(std::string addr, ReadFileToString(addr_file));
  while (!addr.empty() && (addr.back() == '\n' || addr.back() == ' ')) addr.pop_back();
  address_ = addr;
  if (auto http = ReadFileToString(http_file); http.ok()) {
    http_address_ = *http;
    while (!http_address_.empty() && (http_address_.back() == '\n' || http_address_.back() == ' ')) http_address_.pop_back();
  }
  if (options_.ordered_workers) {
    workers_deadline = MonotonicSeconds() + timeout_seconds;
    for (int i = 0; i < options_.workers; ++i) MR_RETURN_IF_ERROR(spawn_worker(i, {"worker", "--master", address_}));
  }
  return Status::Ok();
}

std::string WorkerFileName(int i) { return "worker-" + std::to_string(i + 1); }

// The master numbers workers as they register: waiting for each before starting the next
// makes a fresh cluster's worker-I the master's worker I (its log says "as worker I").
// Best effort: a worker that exits or has not registered by the deadline is waited for no
// longer (it retries on its own; `mr status` shows who registered).
void LocalCluster::WaitForRegistration(pid_t pid, const std::string& log, size_t from, double deadline) {
  while (MonotonicSeconds() < deadline && Alive(pid)) {
    auto text = ReadFileToString(log);
    if (text.ok() && text->size() > from && text->find("registered with master", from) != std::string::npos) return;
    SleepSeconds(0.005);
  }
}

void LocalCluster::Stop() {
  // Workers first, so none of them logs the master's disappearance.
  std::vector<pid_t> workers(pids_.size() > 1 ? pids_.begin() + 1 : pids_.end(), pids_.end());
  Terminate(workers);
  if (!pids_.empty()) Terminate({pids_.front()});
  pids_.clear();
}

Status LocalCluster::StopDetached(const std::string& dir) {
  auto names = ListDir(dir);
  if (!names.ok()) return Status::NotFound("no cluster in " + dir);
  std::vector<pid_t> workers, masters;
  std::map<pid_t, std::string> file_of;
  std::vector<std::string> files;
  for (const auto& n : *names) {
    if (n.size() < 5 || n.substr(n.size() - 4) != ".pid") continue;
    auto text = ReadFileToString(JoinPath(dir, n));
    files.push_back(JoinPath(dir, n));
    if (!text.ok()) continue;
    pid_t pid = static_cast<pid_t>(std::atol(text->c_str()));
    if (pid <= 1) continue;
    (n == "master.pid" ? masters : workers).push_back(pid);
    file_of[pid] = JoinPath(dir, n);
  }
  if (files.empty()) return Status::NotFound("no cluster pid files in " + dir);
  std::vector<pid_t> alive = Terminate(workers);
  for (pid_t p : Terminate(masters)) alive.push_back(p);
  std::string still;
  for (pid_t p : alive) {
    const std::string& f = file_of[p];
    still += (still.empty() ? "" : ", ") + f.substr(dir.size() + 1, f.size() - dir.size() - 5) + " (pid " +
             std::to_string(p) + ")";
    std::erase(files, f);  // kept, so a second stop tries again
  }
  for (const auto& f : files) (void)RemoveAll(f);
  if (!still.empty()) {
    return Status::Unavailable("still running 7 s after SIGTERM and SIGKILL: " + still);
  }
  (void)RemoveAll(JoinPath(dir, "master.addr"));
  (void)RemoveAll(JoinPath(dir, "http.addr"));
  return Status::Ok();
}

}  // namespace mr::cli
