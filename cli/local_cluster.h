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
  // Start each worker once the one before has registered, so that worker-I (its files, its
  // name label) is the master's wI in a fresh cluster (`mr cluster start`, which users read).
  // Off: the workers start beside the master and find its address themselves — the embedded
  // cluster of `mr run` and experiments, where the start's fixed cost matters more.
  bool ordered_workers = false;
  // Start each daemon as a fork of this process that runs `mr master` / `mr worker` through
  // the command table (cli/command.h), without exec: no second dynamic load, relocation and
  // static initialisation of the binary per daemon. For `mr run`'s embedded cluster, whose
  // start is part of every job's wall time (docs/performance.md). The daemons are separate
  // processes either way, with the same arguments, files, signals and process groups; only
  // their /proc/PID/cmdline stays the caller's. Honoured only while the caller is
  // single-threaded (a fork of a threaded process may inherit a lock another thread held);
  // otherwise, when off, and for a detached cluster, each daemon is exec'd.
  bool fork_without_exec = false;
  // Hosts as network namespaces (`ip netns` names; the experiment's kind: netns,
  // cli/experiment_netns.h): the master runs in master_netns listening on master_listen,
  // worker i in worker_netns[i]. Empty: the caller's namespace, on loopback.
  std::string master_netns;
  std::string master_listen = "127.0.0.1:0";
  std::vector<std::string> worker_netns;
};

// Worker i's (0-based) log, pid file and work directory in the cluster's directory, and the
// name `mr cluster start` gives it: "worker-1" for i = 0, as the master numbers it (w1).
std::string WorkerFileName(int i);

// Moves the calling thread into the network namespace `name` (/run/netns/NAME, as `ip
// netns` makes them). Sockets it opens from then on live there, also after it moves back.
// Errors: NotFound (no such namespace), PermissionDenied (needs CAP_SYS_ADMIN).
Status EnterNetns(const std::string& name);
// The calling thread's network namespace, as an fd to pass back to EnterNetnsFd (-1 on error).
int CurrentNetnsFd();
Status EnterNetnsFd(int fd);

// The reason in the master's log when it exits at start: its last "mr: " line (without
// "mr: " and a usage error's "master: "), else its last line.
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
  Result<pid_t> Spawn(const std::vector<std::string>& args, const std::string& log_path,
                      const std::string& netns = "");
  // Whether Spawn forks without exec (fork_without_exec, embedded, single-threaded now).
  bool ForkWithoutExec() const;
  // Returns once the worker's log (past byte `from`) says it registered, it exited, or the
  // deadline passed.
  void WaitForRegistration(pid_t pid, const std::string& log, size_t from, double deadline);

  LocalClusterOptions options_;
  std::string address_;
  std::vector<pid_t> pids_;
  std::string http_address_;
};

// Waits until `path` exists: woken by inotify on its directory (a 20 ms poll where that is
// unavailable), or early when exit_fd (if >= 0; e.g. a pidfd) becomes readable, or at the
// timeout. True if the path exists.
bool WaitForPath(const std::string& path, double timeout_seconds, int exit_fd = -1);

// True if the calling process has one thread (/proc/self/task lists one entry): only then may
// it fork a daemon without exec (LocalClusterOptions::fork_without_exec).
bool SingleThreaded();

// Path of the running executable (/proc/self/exe).
std::string SelfExe();

}  // namespace mr::cli
