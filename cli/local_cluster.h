// LocalCluster: a master and N workers as real child processes on loopback
// (ephemeral ports), for `mr run` without --master (embedded: children die with
// the parent) and `mr cluster start` (detached: they outlive it, pids in DIR).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "common/status.h"

namespace mr::cli {

struct LocalClusterOptions {
  std::string dir;                  // state, work dirs, logs, pid files
  int workers = 1;
  std::vector<std::string> master_args;   // extra flags for `mr master`
  std::vector<std::string> worker_args;   // extra flags for every `mr worker`
  // Extra flags for worker i only (after worker_args), e.g. a heterogeneous shape's slots
  // and speed (`mr experiment`); shorter than `workers` = none for the rest.
  std::vector<std::vector<std::string>> per_worker_args;
  bool detached = false;
};

// The reason in a daemon's log when it exits at start: its last "mr: " line, else its last line.
std::string StartupError(const std::string& log);

class LocalCluster {
 public:
  explicit LocalCluster(LocalClusterOptions o) : options_(std::move(o)) {}
  ~LocalCluster();  // embedded: stops the processes
  LocalCluster(const LocalCluster&) = delete;
  LocalCluster& operator=(const LocalCluster&) = delete;

  // Starts the master, waits for its address, starts the workers. Detached, they run
  // in one new session of their own (see Start in the .cc for why one).
  // REQUIRES (detached): the calling process is single-threaded, as it forks a launcher.
  Status Start(double timeout_seconds = 20);
  const std::string& master_address() const { return address_; }
  // The status page's host:port when the master was given --http (embedded start), else "".
  const std::string& http_address() const { return http_address_; }
  // The daemons' processes (master first) while the cluster runs embedded; empty detached.
  const std::vector<pid_t>& pids() const { return pids_; }
  // SIGTERM to every process, SIGKILL after a grace period; reaps them.
  void Stop();

  // Stops the detached cluster whose pid files are in dir, and returns once its processes
  // have exited: SIGTERM, SIGKILL to those left after 5 s. NotFound without pid files;
  // Unavailable naming those still running 2 s after SIGKILL (their pid files kept).
  static Status StopDetached(const std::string& dir);

 private:
  Status StartDaemons(double timeout_seconds);
  Result<pid_t> Spawn(const std::vector<std::string>& args, const std::string& log_path);

  LocalClusterOptions options_;
  std::string address_;
  std::vector<pid_t> pids_;
  std::string http_address_;
};

// Waits until `path` exists: woken by inotify on its directory (a 20 ms poll where that is
// unavailable), or early when exit_fd (if >= 0; e.g. a pidfd) becomes readable, or at the
// timeout. True if the path exists.
bool WaitForPath(const std::string& path, double timeout_seconds, int exit_fd = -1);

// Path of the running executable (/proc/self/exe).
std::string SelfExe();

}  // namespace mr::cli
