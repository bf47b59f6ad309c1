#include "cli/experiment_netns.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "cli/local_cluster.h"
#include "common/auth.h"
#include "common/file_util.h"

namespace mr::cli {

namespace {

// Runs `command` with sh; returns its stdout, and its exit code in *code.
std::string Capture(const std::string& command, int* code) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) {
    *code = -1;
    return out;
  }
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = ::pclose(p);
  *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// A new cluster token, as `mr token new` writes it (hex, mode 0600).
Status WriteToken(const std::string& path) {
  MR_ASSIGN_OR_RETURN(std::string text, auth::NewTokenText());
  const mode_t old = ::umask(077);
  Status s = WriteFileAtomically(path, text);
  ::umask(old);
  return s;
}

// Starts the guard: `sh -c 'cat; exec SCRIPT down'` in a session of its own (a terminal's
// SIGINT to our group does not reach it), its stdin the read end of a pipe whose write end
// only this process holds (close-on-exec, so the daemons we exec do not keep it open). When
// this process closes it or dies, cat sees end of file and `down` sweeps every run whose
// owner is gone: ours, if we died, whether before, during or after `up`. Returns false if
// it could not be started.
bool StartGuard(const std::string& script, NetnsHosts* h) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return false;
  }
  if (pid == 0) {  // only async-signal-safe calls until exec
    ::setsid();
    ::dup2(fds[0], 0);  // the copy is not close-on-exec
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) {
      ::dup2(null, 1);
      ::dup2(null, 2);
    }
    ::execl("/bin/sh", "sh", "-c", "cat >/dev/null; exec \"$0\" down", script.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(fds[0]);
  h->guard_fd = fds[1];
  h->guard_pid = pid;
  return true;
}

void StopGuard(NetnsHosts* h) {
  if (h->guard_fd < 0) return;
  ::close(h->guard_fd);
  int status = 0;
  while (::waitpid(h->guard_pid, &status, 0) < 0 && errno == EINTR) {
  }
  h->guard_fd = h->guard_pid = -1;
}

}  // namespace

Result<std::string> NetnsScript() {
  if (const char* env = std::getenv("MR_NETNS_SCRIPT"); env != nullptr && *env != '\0') {
    if (PathExists(env)) return std::string(env);
    return Status::NotFound(std::string("MR_NETNS_SCRIPT names ") + env + ", which does not exist");
  }
  std::string dir = SelfExe();
  std::vector<std::string> tried;
  for (int up = 0; up < 4; ++up) {  // BUILD/cli/mr: the parents of BUILD
    const size_t slash = dir.rfind('/');
    if (slash == std::string::npos || slash == 0) break;
    dir = dir.substr(0, slash);
    tried.push_back(JoinPath(dir, "scripts/netns-cluster.sh"));
    if (PathExists(tried.back())) return tried.back();
  }
  tried.push_back("scripts/netns-cluster.sh");
  if (PathExists(tried.back())) return AbsolutePath(tried.back());
  std::string list;
  for (const std::string& t : tried) list += (list.empty() ? "" : ", ") + t;
  return Status::NotFound("cannot find scripts/netns-cluster.sh (tried " + list + "); set MR_NETNS_SCRIPT");
}

std::string TcRate(double bytes_per_second) {
  return std::to_string(static_cast<unsigned long long>(bytes_per_second * 8 + 0.5)) + "bit";
}

Result<NetnsHosts> NetnsUp(int workers, double link_rate, const std::string& dir) {
  if (::geteuid() != 0) return Status::PermissionDenied("cluster kind netns needs root (network namespaces)");
  MR_ASSIGN_OR_RETURN(std::string script, NetnsScript());
  const std::string hosts_dir = JoinPath(dir, "hosts"), log = JoinPath(dir, "netns-up.log");
  MR_RETURN_IF_ERROR(MakeDirs(hosts_dir));
  NetnsHosts h;
  (void)StartGuard(script, &h);  // before `up`: a signal during it must not leave hosts either
  int code = 0;
  const std::string out = Capture(Quote(script) + " up " + std::to_string(workers) + " --link " + TcRate(link_rate) +
                                      " --dir " + Quote(hosts_dir) + " --owner " + std::to_string(::getpid()) + " 2>" +
                                      Quote(log),
                                  &code);
  if (code != 0) {
    StopGuard(&h);
    auto text = ReadFileToString(log);
    return Status::Unavailable("netns-cluster.sh up failed: " + (text.ok() ? *text : std::string("(no log)")));
  }
  std::istringstream lines(out);
  std::string workers_line, ips_line;
  for (std::string line; std::getline(lines, line);) {
    const size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq);
    std::string value = line.substr(eq + 1);
    if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
    if (key == "MRN_RUN") h.run = value;
    if (key == "MRN_MASTER_NS") h.master_ns = value;
    if (key == "MRN_MASTER_IP") h.master_ip = value;
    if (key == "MRN_CLIENT_NS") h.client_ns = value;
    if (key == "MRN_WORKERS") workers_line = value;
    if (key == "MRN_WORKER_IPS") ips_line = value;
  }
  std::istringstream ws(workers_line), ips(ips_line);
  for (std::string w, ip; ws >> w && ips >> ip;) {
    h.worker_ns.push_back(w);
    h.worker_ips.push_back(ip);
  }
  if (h.run.empty() || h.master_ns.empty() || h.client_ns.empty() ||
      h.worker_ns.size() != static_cast<size_t>(workers)) {
    NetnsDown(&h);
    return Status::Internal("netns-cluster.sh up printed an unexpected description: " + out);
  }
  h.token_file = JoinPath(hosts_dir, "token");
  if (Status s = WriteToken(h.token_file); !s.ok()) {
    NetnsDown(&h);
    return s.WithContext("cluster token");
  }
  return h;
}

void NetnsDown(NetnsHosts* hosts) {
  auto script = NetnsScript();
  if (script.ok() && !hosts->run.empty()) {
    int code = 0;
    (void)Capture(Quote(*script) + " down " + Quote(hosts->run) + " 2>/dev/null", &code);
  }
  StopGuard(hosts);  // its sweep finds nothing of ours left
}

}  // namespace mr::cli
