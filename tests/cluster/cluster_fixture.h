// Helpers for tests that run the real `mr` binary as separate processes on
// loopback: running commands, generating inputs, reading traces. Every wait is a poll
// with a real-time deadline: WaitForStatus here, WaitUntil (tests/common/wait.h) otherwise.
#pragma once

#include <functional>
#include <memory>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/common/wait.h"

namespace mr::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `sh -c command`, capturing stdout and stderr.
CommandResult Sh(const std::string& command);
// Path of the mr binary under test ($MR_BIN).
std::string MrBin();
std::string ShellQuote(const std::string& s);

// Deterministic word corpus (~bytes): words of letters with punctuation, digits
// and mixed case, so tokenising edge cases are exercised.
void WriteCorpus(const std::string& path, size_t bytes, uint64_t seed);
// Lines of 99 printable bytes + '\n' (sort's 100-byte records).
void WriteRecords(const std::string& path, size_t records, uint64_t seed);

std::vector<nlohmann::json> ReadTrace(const std::string& path);
// What a correct word count of `input` writes, as sorted "word\tcount" lines (coreutils),
// and a job's output parts concatenated and sorted the same way: compare the two.
std::string WordCountReference(const std::string& input);
std::string SortedOutput(const std::string& out_dir);
// Lines written by the shell command `cmd` (0 for none, a last line without '\n' counts).
int64_t CountLines(const std::string& cmd);
std::string ReadFile(const std::string& path);
// The tree under path with every file's contents ("(absent)" if there is none): what a
// refused command must leave exactly as it was.
std::string Snapshot(const std::string& path);

// True if pid is a live process (not a zombie).
bool ProcessRunning(int pid);
// The argv of a live process, from /proc/PID/cmdline; empty if it is gone.
std::vector<std::string> ProcessArgs(int pid);
// Whether args holds `flag value` as consecutive tokens.
bool HasArgs(const std::vector<std::string>& args, const std::string& flag, const std::string& value);
// The tokens joined by spaces, for failure messages.
std::string Joined(const std::vector<std::string>& args);
// Live processes with text in one of their arguments (e.g. a test's own cluster directory):
// how a test sees that nothing it started is left running.
std::vector<int> ProcessesMentioning(const std::string& text);
// The pid in a pid file, or -1.
int ReadPidFile(const std::string& path);

// A blocking TCP socket connected to 127.0.0.1:port; *connected says whether connect
// succeeded. The caller closes the fd (>= 0 unless socket() failed).
int ConnectLoopback(uint16_t port, bool* connected);

// Forks and execs `mr ARGS...` with stdout+stderr appended to log_path; returns its pid.
// With own_group the child leads a process group of its own (as a shell starts a
// foreground job), so a signal to the group is what Ctrl-C on a terminal sends.
int SpawnMr(const std::vector<std::string>& mr_args, const std::string& log_path, bool own_group = false);

// A child process running `mr ARGS...` with stdout+stderr to log_path.
// Killed with SIGKILL (and reaped) on destruction unless already reaped.
class ChildProcess {
 public:
  ChildProcess(const std::vector<std::string>& mr_args, const std::string& log_path);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  int pid() const { return pid_; }
  void Kill(int sig);
  // Waits for exit; returns the exit status (or 128+signal), -1 on timeout.
  int Wait(double timeout_seconds);

 private:
  int pid_ = -1;
  bool reaped_ = false;
};

// Polls `mr status --json JOB` until pred(json) or the timeout; true if pred held.
bool WaitForStatus(const std::string& master, const std::string& job,
                   const std::function<bool(const nlohmann::json&)>& pred, double timeout_seconds);

// A master and workers started as direct children of the test, not through `mr cluster
// start`, so a test can SIGKILL the master and restart it on the same state directory and
// port, or kill and replace workers. Under dir: state/, addr, master-N.log (one per start),
// wK/ and worker-K.log. Everything still running is SIGKILLed on destruction.
class DirectCluster {
 public:
  explicit DirectCluster(std::string dir) : d_(std::move(dir)) {}
  // Starts the master, or restarts it on the same state directory and, after the first
  // start, on the same port. False if it wrote no address within 10 s.
  bool StartMaster(const std::vector<std::string>& extra = {});
  // SIGKILLs the master and reaps it.
  void KillMaster();
  // Starts a worker with a work directory of its own; workers are numbered from 0 in
  // start order, and `extra` is appended to its arguments.
  void StartWorker(const std::vector<std::string>& extra = {});
  // SIGKILLs the i-th of the workers still running (in start order) and reaps it.
  void KillWorker(size_t i);
  // Sends sig (SIGSTOP, SIGCONT, ...) to the master.
  void SignalMaster(int sig);
  // Sends sig (SIGSTOP, SIGCONT, ...) to the i-th worker.
  void SignalWorker(size_t i, int sig);
  // SIGSTOPs every running worker: until ThawWorkers() no task makes progress, so a test
  // can read a job's state and act on it (kill the master, a worker) before it changes.
  void FreezeWorkers();
  void ThawWorkers();
  // job's "state" in `mr status --json JOB` ("RUNNING", ...), or "" if it cannot be read.
  std::string JobState(const std::string& job) const;
  // Whether `mr status` counted exactly n registered workers within `seconds`.
  bool WaitForWorkers(int n, double seconds = 30) const;
  size_t workers() const { return workers_.size(); }
  const std::string& addr() const { return addr_; }
  const std::string& dir() const { return d_; }
  // The log of the latest master start, and every start's log in order.
  std::string LatestMasterLogPath() const;
  std::string MasterLogs() const;
  // `mr ARGS --master ADDR`.
  CommandResult Mr(const std::string& args) const;

 private:
  std::string d_;
  std::string addr_;
  int master_starts_ = 0;
  int worker_starts_ = 0;
  std::unique_ptr<ChildProcess> master_;
  std::vector<std::unique_ptr<ChildProcess>> workers_;
};

// A background cluster started with `mr cluster start`, stopped on destruction.
class ClusterProcess {
 public:
  ClusterProcess(const std::string& dir, int workers, const std::string& extra_flags = "");
  ~ClusterProcess();
  const std::string& address() const { return address_; }
  bool ok() const { return !address_.empty(); }
  const std::string& start_error() const { return error_; }

 private:
  std::string dir_;
  std::string address_;
  std::string error_;
};

}  // namespace mr::testing
