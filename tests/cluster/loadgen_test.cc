// `mr loadgen` against a real `mr master` process (issue 29, item 6): the simulated workers
// and the master agree on the worker protocol. Fifty simulated workers run one short job:
// every map and reduce is reported once, the master commits every reduce's part file and
// counts the shuffle bytes the reducers reported, and its heartbeat count matches the
// replies the workers received. Then the master is SIGKILLed mid-job and restarted on the
// same state and port: every simulated worker registers again (offering the map outputs it
// holds) and the job succeeds.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cmath>
#include <thread>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

nlohmann::json Phase(const nlohmann::json& result, const std::string& name) {
  for (const auto& p : result.at("phases")) {
    if (p.at("name") == name) return p;
  }
  ADD_FAILURE() << "no phase " << name << " in " << result.dump();
  return nlohmann::json::object();
}

std::string FirstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

TEST(LoadgenTest, FiftySimulatedWorkersRunAJobTheMasterAccepts) {
  TempDir dir("mr-loadgen");
  DirectCluster c(dir.path() + "/cluster");
  ASSERT_TRUE(MakeDirs(c.dir()).ok());
  ASSERT_TRUE(c.StartMaster({"--http", "127.0.0.1:0", "--http-addr-file", c.dir() + "/http"}));
  const std::string http = FirstLine(ReadFile(c.dir() + "/http"));
  const std::string json_path = dir.path() + "/result.json";
  CommandResult r = Sh(ShellQuote(MrBin()) + " loadgen --master " + c.addr() + " --master-http " + http +
                       " --workers 50 --jobs 1 --maps 100 --reducers 10 --task-seconds 0.02 --reduce-seconds 0.02"
                       " --map-bytes 1000000 --idle 0.3 --out " + ShellQuote(dir.path() + "/out") +
                       " --json " + ShellQuote(json_path));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err << c.MasterLogs();
  EXPECT_NE(r.out.find("jobs: 1 of 1 succeeded"), std::string::npos) << r.out;
  const nlohmann::json result = nlohmann::json::parse(ReadFile(json_path));
  EXPECT_EQ(result.at("jobs").at("succeeded"), 1);
  EXPECT_EQ(result.at("losses"), 0);
  EXPECT_EQ(result.at("reduces_failed"), 0);
  EXPECT_EQ(Phase(result, "register").at("master_workers"), 50);
  // Every task reported once: no re-execution, no lost report.
  const nlohmann::json jobs = Phase(result, "jobs");
  EXPECT_EQ(jobs.at("maps"), 100);
  EXPECT_EQ(jobs.at("reduces"), 10);
  // Each heartbeat the master handled is a reply a worker read; a phase's edges may cut
  // through at most one heartbeat in flight per worker.
  for (const char* name : {"idle", "jobs"}) {
    const nlohmann::json p = Phase(result, name);
    EXPECT_LE(std::abs(p.at("master_heartbeats").get<double>() - p.at("replies").get<double>()), 50.0) << p.dump();
  }
  // The master timed its rounds, and the job's rounds had free slots to fill.
  EXPECT_GT(jobs.at("round_per_free_slot_us").at("count").get<int>(), 0) << jobs.dump();
  EXPECT_GT(jobs.at("heartbeat_us").at("count").get<int>(), 0) << jobs.dump();

  // The master's view: the job done, every reduce committed, the announced partitions
  // (1,000,000 bytes per map over 10 reducers) counted as fetched.
  const std::string out = dir.path() + "/out/job-0";
  EXPECT_TRUE(PathExists(out + "/_SUCCESS"));
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(PathExists(out + "/part-r-0000" + std::to_string(i))) << i;
  CommandResult s = c.Mr("status --json job-000001");
  ASSERT_EQ(s.exit_code, 0) << s.err;
  const nlohmann::json status = nlohmann::json::parse(s.out);
  const nlohmann::json job = status.contains("jobs") ? status.at("jobs").at(0) : status;
  EXPECT_EQ(job.at("state"), "SUCCEEDED") << s.out;
  EXPECT_EQ(job.at("maps_done"), 100) << s.out;
  EXPECT_EQ(job.at("reduces_done"), 10) << s.out;
  EXPECT_EQ(job.at("shuffle_bytes_fetched"), 100000000) << s.out;
}

TEST(LoadgenTest, SimulatedWorkersRegisterAgainAfterAMasterRestart) {
  TempDir dir("mr-loadgen-restart");
  DirectCluster c(dir.path() + "/cluster");
  ASSERT_TRUE(MakeDirs(c.dir()).ok());
  ASSERT_TRUE(c.StartMaster());
  const std::string log = dir.path() + "/loadgen.log";
  const std::string json_path = dir.path() + "/result.json";
  const int pid = SpawnMr({"loadgen", "--master", c.addr(), "--workers", "30", "--jobs", "0", "--idle", "0",
                           "--reducers", "4", "--restart", "--restart-maps", "90", "--restart-map-seconds", "0.5",
                           "--out", dir.path() + "/out", "--json", json_path},
                          log);
  ASSERT_GT(pid, 0);
  auto stop = [pid] {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  };
  if (!WaitUntil([&] { return ReadFile(log).find("restart the master now") != std::string::npos; }, 30, 0.02)) {
    stop();
    FAIL() << "no restart cue: " << ReadFile(log) << c.MasterLogs();
  }
  c.KillMaster();
  ASSERT_TRUE(c.StartMaster()) << c.MasterLogs();
  int status = 0;
  if (!WaitUntil([&] { return waitpid(pid, &status, WNOHANG) == pid; }, 60, 0.05)) {
    stop();
    FAIL() << "mr loadgen did not end: " << ReadFile(log) << c.MasterLogs();
  }
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << ReadFile(log) << c.MasterLogs();
  const nlohmann::json restart = nlohmann::json::parse(ReadFile(json_path)).at("restart");
  EXPECT_EQ(restart.at("job_state"), "SUCCEEDED") << restart.dump();
  EXPECT_GE(restart.at("all_registered").get<double>(), 0) << restart.dump();
  EXPECT_GE(restart.at("first_assignment").get<double>(), 0) << restart.dump();
  // The job went through the restart (the master recovered it from its store).
  bool restarted = false;
  for (const auto& e : ReadTrace(dir.path() + "/out/restart-job/_trace.jsonl")) {
    restarted = restarted || e.at("event") == "master_restart";
  }
  EXPECT_TRUE(restarted) << "no master_restart event in the job's trace";
  EXPECT_TRUE(PathExists(dir.path() + "/out/restart-job/_SUCCESS"));
  // Nobody was lost on the way back: re-registering workers are not counted silent.
  EXPECT_EQ(c.MasterLogs().find(" lost: "), std::string::npos) << c.MasterLogs();
}

// A master whose state thread falls behind by more than the worker timeout (here it is
// stopped for 2.5 s against a 1 s timeout, as a restart's registration storm held it at 5,000
// workers) declares no worker lost whose heartbeat waits in its connection: the wait is the
// master's, not the worker's. Before, the first Tick after the pause ran once the first batch
// of ready connections was served, and declared every other worker lost.
TEST(LoadgenTest, AMasterBehindItsQueueDeclaresNoWaitingWorkerLost) {
  TempDir dir("mr-loadgen-pause");
  DirectCluster c(dir.path() + "/cluster");
  ASSERT_TRUE(MakeDirs(c.dir()).ok());
  ASSERT_TRUE(c.StartMaster({"--worker-timeout", "1"}));
  const std::string log = dir.path() + "/loadgen.log";
  const int pid = SpawnMr({"loadgen", "--master", c.addr(), "--workers", "300", "--jobs", "0", "--idle", "6",
                           "--out", dir.path() + "/out"},
                          log);
  ASSERT_GT(pid, 0);
  auto stop = [pid] {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  };
  if (!c.WaitForWorkers(300, 30)) {
    stop();
    FAIL() << "the 300 simulated workers did not register: " << ReadFile(log) << c.MasterLogs();
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // every worker heartbeating
  c.SignalMaster(SIGSTOP);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));  // the master's stall: 2.5 timeouts
  c.SignalMaster(SIGCONT);
  int status = 0;
  if (!WaitUntil([&] { return waitpid(pid, &status, WNOHANG) == pid; }, 60, 0.05)) {
    stop();
    FAIL() << "mr loadgen did not end: " << ReadFile(log) << c.MasterLogs();
  }
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << ReadFile(log) << c.MasterLogs();
  const std::string logs = c.MasterLogs();
  size_t lost = 0;
  for (size_t at = logs.find(" lost: "); at != std::string::npos; at = logs.find(" lost: ", at + 1)) lost++;
  EXPECT_EQ(lost, 0u) << "workers declared lost though their heartbeats were waiting:\n" << logs.substr(0, 4000);
}

}  // namespace
}  // namespace mr::testing
