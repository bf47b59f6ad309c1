// Cancellation (issue 11): `mr kill JOB`, Ctrl-C / SIGTERM on `mr run` (embedded and
// against a cluster), --detach-on-interrupt, and the `mr` exit-status contract
// (0 ok, 1 job failed or killed, 2 bad usage or input, 3 cluster unreachable or refusing,
// 130 interrupted). A killed job ends KILLED, leaves no output directory, and leaves no
// task, streaming child or job directory on the workers.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

#include <gtest/gtest.h>

#include "common/clock.h"
#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

// A mapper that holds its map for half a minute: the marker number lets the test find the
// streaming child among the machine's processes.
constexpr const char* kSlowMarker = "29.731";
const std::string kSlowMapper = std::string("sleep ") + kSlowMarker + "; cat";

// The slow mapper's `sleep` (not the mr commands whose arguments carry the mapper).
bool SlowChildRunning() {
  for (int pid : ProcessesMentioning(kSlowMarker)) {
    auto args = ProcessArgs(pid);
    if (!args.empty() && args[0] == "sleep") return true;
  }
  return false;
}

nlohmann::json JobStatus(const DirectCluster& c, const std::string& job) {
  auto r = c.Mr("status --json " + job);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out, nullptr, false);
}

// The job's directories (jN) under every worker's work directory.
std::vector<std::string> WorkerJobDirs(const std::string& d, int workers, int job) {
  std::vector<std::string> found;
  for (int i = 0; i < workers; ++i) {
    std::string p = d + "/w" + std::to_string(i) + "/j" + std::to_string(job);
    if (PathExists(p)) found.push_back(p);
  }
  return found;
}

// `mr ARGS...` in a process group of its own, as a shell starts a foreground job: a
// signal to the group is what Ctrl-C on a terminal sends.
class ForegroundJob {
 public:
  ForegroundJob(const std::vector<std::string>& mr_args, const std::string& log_path)
      : pid_(SpawnMr(mr_args, log_path, /*own_group=*/true)) {}
  ~ForegroundJob() {
    if (!reaped_) {
      kill(-pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  void SignalGroup(int sig) { kill(-pid_, sig); }
  // The exit status (128 + signal if killed), -1 after the timeout.
  int Wait(double timeout_seconds) {
    int status = 0;
    bool done = WaitUntil([&] { return waitpid(pid_, &status, WNOHANG) == pid_; }, timeout_seconds);
    if (!done) return -1;
    reaped_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
};

class KillTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteStringToFile(in_, "b a c\na b\nb\n").ok());
    ASSERT_FALSE(SlowChildRunning()) << "a slow mapper of another run is still alive";
  }
  void StartCluster(int workers) {
    ASSERT_TRUE(c_.StartMaster({"--heartbeat-ms", "20"}));
    for (int i = 0; i < workers; ++i) c_.StartWorker();
  }
  // `mr run` of the slow streaming job against the cluster, with `extra` flags.
  std::vector<std::string> SlowRunArgs(const std::vector<std::string>& extra) const {
    std::vector<std::string> args{"run", "streaming", "--mapper", kSlowMapper, "--reducer", "cat", "--input", in_,
                                  "--output", out_, "--master", c_.addr()};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  // Waits until job-000001's map runs its streaming child.
  void WaitForSlowMap() {
    ASSERT_TRUE(WaitUntil(SlowChildRunning, 20)) << "the slow map never started";
    ASSERT_TRUE(PathExists(out_ + "/_temporary"));
  }
  // What every kill must leave: the job KILLED by the user (not "done"), no output
  // directory, and on the workers no streaming child and no job directory.
  void ExpectKilledAndClean(int workers) {
    nlohmann::json st = JobStatus(c_, "job-000001");
    EXPECT_EQ(st.value("state", ""), "KILLED") << st.dump();
    EXPECT_EQ(st.value("error", ""), "killed by user") << st.dump();
    EXPECT_NE(st.value("phase", ""), "done") << st.dump();
    EXPECT_FALSE(PathExists(out_)) << "the killed job left its output directory";
    EXPECT_TRUE(WaitUntil([] { return !SlowChildRunning(); }, 10)) << "the streaming child outlived the kill";
    EXPECT_TRUE(WaitUntil([&] { return WorkerJobDirs(c_.dir(), workers, 1).empty(); }, 10))
        << "a worker kept the killed job's directory";
    EXPECT_FALSE(PathExists(out_)) << "a worker re-created the killed job's output";
  }
  TempDir tmp_{"mr-kill-test"};
  std::string d_ = tmp_.path();
  std::string in_ = d_ + "/in.txt";
  std::string out_ = d_ + "/out";
  DirectCluster c_{d_ + "/cluster"};
};

TEST_F(KillTest, KillARunningJob) {
  StartCluster(2);
  auto submit = c_.Mr("submit streaming --mapper " + ShellQuote(kSlowMapper) + " --reducer cat --input " + in_ +
                      " --output " + out_);
  ASSERT_EQ(submit.exit_code, 0) << submit.err;
  ASSERT_EQ(submit.out, "job-000001\n");
  WaitForSlowMap();

  auto kill = c_.Mr("kill job-000001");
  EXPECT_EQ(kill.exit_code, 0) << kill.err;
  EXPECT_NE(kill.out.find("killed job-000001"), std::string::npos) << kill.out;
  ExpectKilledAndClean(2);

  // The kill is in the job's trace, as its end. The trace's writer thread appends it after
  // the kill's reply (master/trace_queue.h), so wait for it, bounded.
  auto killed_traced = [&] {
    bool traced = false;
    for (const auto& e : ReadTrace(c_.dir() + "/state/traces/job-000001.jsonl")) {
      if (e.value("event", "") == "job_end") traced = e.value("status", "") == "killed";
    }
    return traced;
  };
  EXPECT_TRUE(WaitUntil(killed_traced, 10)) << "no job_end event with status killed in the trace";

  // An ended job cannot be killed, an unknown one neither: bad input, exit 2, one line.
  auto again = c_.Mr("kill job-000001");
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("job-000001 has already ended (KILLED)"), std::string::npos) << again.err;
  auto unknown = c_.Mr("kill job-000042");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("no job job-000042"), std::string::npos) << unknown.err;
  EXPECT_EQ(c_.Mr("kill not-a-job").exit_code, 2);

  // KILLED is stored: a restarted master still says so.
  c_.KillMaster();
  ASSERT_TRUE(c_.StartMaster({"--heartbeat-ms", "20"}));
  nlohmann::json st = JobStatus(c_, "job-000001");
  EXPECT_EQ(st.value("state", ""), "KILLED") << st.dump();
  EXPECT_EQ(st.value("error", ""), "killed by user") << st.dump();
}

TEST_F(KillTest, InterruptedRunAgainstAClusterKillsItsJob) {
  StartCluster(1);
  ForegroundJob run(SlowRunArgs({"--quiet"}), d_ + "/run.log");
  WaitForSlowMap();
  run.SignalGroup(SIGINT);
  EXPECT_EQ(run.Wait(20), 130);
  std::string log = ReadFile(d_ + "/run.log");
  EXPECT_NE(log.find("mr: interrupted: killed job-000001"), std::string::npos) << log;
  EXPECT_EQ(log.find("lost the master"), std::string::npos) << log;
  ExpectKilledAndClean(1);
}

// The job `mr run` waits for is killed by another client: the run reports it and exits 1
// (the job failed or was killed), not 0 and not a lost master.
TEST_F(KillTest, RunWhoseJobIsKilledElsewhereExitsOne) {
  StartCluster(1);
  ForegroundJob run(SlowRunArgs({"--quiet"}), d_ + "/run.log");
  WaitForSlowMap();
  auto kill = c_.Mr("kill job-000001");
  EXPECT_EQ(kill.exit_code, 0) << kill.err;
  EXPECT_EQ(run.Wait(20), 1);
  std::string log = ReadFile(d_ + "/run.log");
  EXPECT_NE(log.find("mr: job-000001 was killed: killed by user"), std::string::npos) << log;
  ExpectKilledAndClean(1);
}

TEST_F(KillTest, TerminatedRunKillsItsJob) {
  StartCluster(1);
  ForegroundJob run(SlowRunArgs({}), d_ + "/run.log");
  WaitForSlowMap();
  run.SignalGroup(SIGTERM);
  EXPECT_EQ(run.Wait(20), 130);
  ExpectKilledAndClean(1);
}

TEST_F(KillTest, DetachOnInterruptLeavesTheJobRunning) {
  StartCluster(1);
  // The map waits for a gate file the test creates once the interrupted run has exited, so
  // the interrupt always lands while the job runs, and the job then ends on its own.
  const std::string gate = d_ + "/gate";
  const std::string gated = "while [ ! -e " + gate + " ]; do sleep 0.05; done; cat";
  ForegroundJob run({"run", "streaming", "--mapper", gated, "--reducer", "cat", "--input", in_, "--output", out_,
                     "--quiet", "--detach-on-interrupt", "--master", c_.addr()},
                    d_ + "/run.log");
  ASSERT_TRUE(WaitForStatus(c_.addr(), "job-000001", [](const nlohmann::json& j) {
    return j.value("maps_running", 0) > 0;
  }, 20));
  run.SignalGroup(SIGINT);
  EXPECT_EQ(run.Wait(20), 130);
  std::string log = ReadFile(d_ + "/run.log");
  EXPECT_NE(log.find("mr kill job-000001 --master " + c_.addr()), std::string::npos) << log;
  EXPECT_EQ(JobStatus(c_, "job-000001").value("state", ""), "RUNNING") << "the detached job did not keep running";
  ASSERT_TRUE(WriteStringToFile(gate, "").ok());
  EXPECT_TRUE(WaitForStatus(c_.addr(), "job-000001", [](const nlohmann::json& j) {
    return j.value("state", "") == "SUCCEEDED";
  }, 30)) << JobStatus(c_, "job-000001").dump();
  EXPECT_TRUE(PathExists(out_ + "/_SUCCESS"));
}

// Ctrl-C on a terminal signals the whole foreground group: the embedded master and workers
// must not die before `mr run` has killed its job, so the output's _temporary goes and the
// same command runs again.
TEST_F(KillTest, InterruptedEmbeddedRunCleansUpAndRerunWorks) {
  std::vector<std::string> args = {"run", "streaming", "--mapper", kSlowMapper, "--reducer", "cat",
                                   "--input", in_, "--output", out_, "--workers", "1", "--quiet"};
  {
    ForegroundJob run(args, d_ + "/run.log");
    WaitForSlowMap();
    run.SignalGroup(SIGINT);
    EXPECT_EQ(run.Wait(30), 130);
    std::string log = ReadFile(d_ + "/run.log");
    EXPECT_NE(log.find("mr: interrupted: killed job-000001"), std::string::npos) << log;
    EXPECT_EQ(log.find("lost the master"), std::string::npos) << log;
  }
  EXPECT_FALSE(PathExists(out_)) << "the interrupted run left " << Snapshot(out_);
  EXPECT_TRUE(WaitUntil([] { return !SlowChildRunning(); }, 10)) << "the streaming child outlived the run";
  auto rerun = Sh(MrBin() + " run streaming --mapper cat --reducer cat --input " + in_ + " --output " + out_ +
                  " --workers 1 --quiet");
  EXPECT_EQ(rerun.exit_code, 0) << rerun.err;
  EXPECT_TRUE(PathExists(out_ + "/_SUCCESS"));
}

TEST(ExitStatusTest, ClusterUnreachableIsThree) {
  TempDir tmp("mr-exit-test");
  ASSERT_TRUE(WriteStringToFile(tmp.path() + "/in.txt", "a\n").ok());
  // Port 1 (tcpmux) is privileged and not served on a test machine.
  for (const std::string& args :
       {std::string("status"), std::string("kill job-000001"),
        "submit wordcount --input " + tmp.path() + "/in.txt --output " + tmp.path() + "/o",
        "run wordcount --input " + tmp.path() + "/in.txt --output " + tmp.path() + "/o"}) {
    auto r = Sh(MrBin() + " " + args + " --master 127.0.0.1:1");
    EXPECT_EQ(r.exit_code, 3) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("127.0.0.1:1"), std::string::npos) << args << "\n" << r.err;
  }
  EXPECT_FALSE(PathExists(tmp.path() + "/o"));
}

TEST(ExitStatusTest, KillUsage) {
  EXPECT_EQ(Sh(MrBin() + " kill --master 127.0.0.1:1").exit_code, 2);
  auto help = Sh(MrBin() + " help kill");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("mr kill JOB"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace mr::testing
