// Speculative execution (LATE, scheduler/speculator.h) on a live cluster: real processes on
// loopback. Four workers with one map slot each, one at --speed 0.1: the map it runs takes
// ten times as long, an idle fast worker backs it up, the backup wins, the slow attempt is
// killed (counted killed, not failed), and the output is byte-identical to the same job run
// with --speculative off, every partition committed exactly once.
#include <gtest/gtest.h>

#include <functional>
#include <future>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

nlohmann::json Counters(const DirectCluster& c, const std::string& job) {
  auto r = c.Mr("status --json " + job);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto st = nlohmann::json::parse(r.out, nullptr, false);
  return st.is_discarded() ? nlohmann::json::object()
                           : st.value("counters", nlohmann::json::object());
}

// The output directory's entries (names only) and each part's bytes.
std::map<std::string, std::string> Parts(const std::string& dir) {
  std::map<std::string, std::string> out;
  auto ls = Sh("ls -A " + ShellQuote(dir));
  size_t pos = 0;
  while (pos < ls.out.size()) {
    size_t nl = ls.out.find('\n', pos);
    std::string name = ls.out.substr(pos, nl - pos);
    pos = nl == std::string::npos ? ls.out.size() : nl + 1;
    if (name.rfind("part-r-", 0) == 0)
      out[name] = ReadFile(dir + "/" + name);
    else
      out[name] = "";
  }
  return out;
}

// Freezes every worker at a moment when `job` is RUNNING and pred holds for its status: the
// check is made with the workers frozen (SIGSTOP), so the job cannot end between it and what
// the caller does next, however late a poll comes. Between checks the workers run for 50 ms.
// False if no such moment came within the timeout (the workers are then left running).
bool FreezeWhenRunning(DirectCluster& c, const std::string& job,
                       const std::function<bool(const nlohmann::json&)>& pred, double timeout) {
  return WaitUntil([&] {
    c.FreezeWorkers();
    auto st = nlohmann::json::parse(c.Mr("status --json " + job).out, nullptr, false);
    if (!st.is_discarded() && st.value("state", "") == "RUNNING" && pred(st)) return true;
    c.ThawWorkers();
    return false;
  }, timeout, 0.05);
}

TEST(SpeculationTest, BackupOfTheSlowWorkersMapWinsAndTheOutputIsExact) {
  TempDir tmp("mr-speculation-test");
  const std::string d = tmp.path();
  DirectCluster c(d + "/cluster");
  ASSERT_TRUE(MakeDirs(d + "/cluster").ok());
  ASSERT_TRUE(c.StartMaster({"--heartbeat-ms", "50"})) << c.MasterLogs();
  // Each worker registers before the next starts: the slow one is worker 4.
  for (int i = 0; i < 3; ++i) {
    c.StartWorker({"--map-slots", "1", "--reduce-slots", "1"});
    ASSERT_TRUE(c.WaitForWorkers(i + 1)) << c.MasterLogs();
  }
  c.StartWorker({"--map-slots", "1", "--reduce-slots", "1", "--speed", "0.1"});
  ASSERT_TRUE(c.WaitForWorkers(4)) << c.MasterLogs();
  // 8 maps of 0.3 s (3 s on the slow worker), held without CPU so the 4 workers do not
  // compete for this machine's cores.
  const std::string job =
      "run synthetic --quiet --maps 8 --map-seconds 0.3 --map-bytes 200KB --work sleep "
      "--reducers 3 --output ";
  CommandResult off = c.Mr(job + d + "/off --speculative off");
  ASSERT_EQ(off.exit_code, 0) << off.err;
  CommandResult on = c.Mr(job + d + "/on --speculative on");
  ASSERT_EQ(on.exit_code, 0) << on.err;

  // Byte-exact, and only the parts, _SUCCESS and the trace: no temporary or second copy.
  std::map<std::string, std::string> a = Parts(d + "/off"), b = Parts(d + "/on");
  std::set<std::string> names;
  for (const auto& [name, bytes] : b) names.insert(name);
  EXPECT_EQ(names, (std::set<std::string>{"_SUCCESS", "_trace.jsonl", "part-r-00000",
                                          "part-r-00001", "part-r-00002"}));
  for (const char* part : {"part-r-00000", "part-r-00001", "part-r-00002"}) {
    EXPECT_FALSE(b[part].empty()) << part;
    EXPECT_TRUE(a[part] == b[part]) << part << " differs from the run without speculation";
  }

  // The trace: the slow worker's map backed up, the backup ended ok and the slow attempt was
  // killed; one commit per partition. On a loaded machine a fast worker's map may look slow
  // for a moment and be backed up too, and either attempt of such a race may win: every
  // race ends with exactly one attempt killed. The run without speculation has no backup.
  int backups_started = 0, backups_won = 0, killed = 0, failed = 0, slow_killed = 0;
  std::map<std::string, int> commits;
  std::set<std::pair<std::string, int>> backup_attempts;
  for (const auto& e : ReadTrace(d + "/on/_trace.jsonl")) {
    const std::string ev = e.at("event");
    if (ev == "attempt_start" && e.value("backup", false)) {
      backups_started++;
      backup_attempts.insert({e.at("task").get<std::string>(), e.at("attempt").get<int>()});
    }
    if (ev == "commit") commits[e.at("task")]++;
    if (ev != "attempt_end") continue;
    const std::string status = e.at("status");
    if (status == "failed") failed++;
    if (status == "killed") {
      killed++;
      slow_killed += e.value("worker", 0) == 4;
      EXPECT_NE(e.value("error", "").find("succeeded first"), std::string::npos) << e.dump();
    }
    if (status == "ok" &&
        backup_attempts.count({e.at("task").get<std::string>(), e.at("attempt").get<int>()})) {
      backups_won++;
    }
  }
  EXPECT_GE(backups_started, 1);
  EXPECT_GE(backups_won, 1);
  EXPECT_GE(slow_killed, 1) << "the slow worker's map was not beaten by its backup";
  EXPECT_EQ(killed, backups_started);
  EXPECT_EQ(failed, 0);
  EXPECT_EQ(commits, (std::map<std::string, int>{{"r-00000", 1}, {"r-00001", 1}, {"r-00002", 1}}));
  for (const auto& e : ReadTrace(d + "/off/_trace.jsonl")) {
    EXPECT_FALSE(e.at("event") == "attempt_start" && e.value("backup", false)) << e.dump();
  }

  // mr status counts them: launched, won, and the loser as killed, not failed.
  nlohmann::json counters = Counters(c, "job-000002");
  EXPECT_EQ(counters.value("job.backup_maps", int64_t{0}), backups_started) << counters.dump();
  EXPECT_EQ(counters.value("job.backup_maps_won", int64_t{0}), backups_won) << counters.dump();
  EXPECT_EQ(counters.value("job.killed_maps", int64_t{0}), killed) << counters.dump();
  EXPECT_EQ(counters.value("job.failed_maps", int64_t{0}), 0) << counters.dump();
  EXPECT_EQ(Counters(c, "job-000001").value("job.backup_maps", int64_t{0}), 0);
  // The master logged why it chose the backup.
  EXPECT_NE(c.MasterLogs().find("LATE backup of m-"), std::string::npos);
}

// The master is SIGKILLed while a backup runs (or just after it won) and restarted on the
// same state directory: the job still ends with every partition once, byte-identical to an
// undisturbed run, and nothing left in _temporary.
TEST(SpeculationTest, MasterRestartDuringABackupLeavesExactOutput) {
  TempDir tmp("mr-speculation-restart");
  const std::string d = tmp.path();
  const std::vector<std::string> master_flags = {"--worker-timeout", "10", "--heartbeat-ms", "50"};
  DirectCluster c(d + "/cluster");
  ASSERT_TRUE(MakeDirs(d + "/cluster").ok());
  ASSERT_TRUE(c.StartMaster(master_flags)) << c.MasterLogs();
  for (int i = 0; i < 3; ++i)
    c.StartWorker({"--map-slots", "1", "--reduce-slots", "1", "--master-timeout", "60"});
  c.StartWorker(
      {"--map-slots", "1", "--reduce-slots", "1", "--speed", "0.1", "--master-timeout", "60"});
  ASSERT_TRUE(c.WaitForWorkers(4)) << c.MasterLogs();
  // Maps of 1 s (10 s on the slow worker): the fast workers run three waves, and the backup
  // starts near t = 2 s and runs for about 1 s.
  const std::string job =
      "run synthetic --quiet --maps 8 --map-seconds 1 --map-bytes 200KB --work sleep "
      "--reducers 3 --output ";
  CommandResult ref = c.Mr(job + d + "/ref --speculative on");
  ASSERT_EQ(ref.exit_code, 0) << ref.err;
  auto run = std::async(std::launch::async, [&c, &job, d] { return c.Mr(job + d + "/out --speculative on"); });
  const bool backed_up = FreezeWhenRunning(c, "job-000002", [](const nlohmann::json& j) {
    return j.at("counters").value("job.backup_maps", int64_t{0}) >= 1;
  }, 60);
  ASSERT_TRUE(backed_up) << "no moment with a backup and the job running" << c.MasterLogs();
  c.KillMaster();
  c.ThawWorkers();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_TRUE(c.StartMaster(master_flags)) << c.MasterLogs();
  CommandResult r = run.get();
  ASSERT_EQ(r.exit_code, 0) << r.err << "\nmaster logs:\n" << c.MasterLogs();

  std::map<std::string, std::string> a = Parts(d + "/ref"), b = Parts(d + "/out");
  std::set<std::string> names;
  for (const auto& [name, bytes] : b) names.insert(name);
  EXPECT_EQ(names, (std::set<std::string>{"_SUCCESS", "_trace.jsonl", "part-r-00000",
                                          "part-r-00001", "part-r-00002"}));
  for (const char* part : {"part-r-00000", "part-r-00001", "part-r-00002"}) {
    EXPECT_FALSE(b[part].empty()) << part;
    EXPECT_TRUE(a[part] == b[part]) << part << " differs from the undisturbed run";
  }
  int restarts = 0;
  for (const auto& e : ReadTrace(d + "/out/_trace.jsonl"))
    restarts += e.at("event") == "master_restart";
  EXPECT_EQ(restarts, 1);
}

// Reduce backups: worker 1 runs the maps and a reducer; worker 2 has a reduce slot only and
// runs at --speed 0.05, so its reducer (0.2 s of reduce work) takes 4 s. Once worker 1's own
// reducer has committed (its measured reduce rate is the yardstick), its free reduce slot
// backs the slow one up: the backup fetches the partition again on worker 1, runs, wins and
// commits; the slow attempt is killed. The output is byte-identical to a run without
// speculation, each partition committed once.
class ReduceSpeculationTest : public ::testing::Test {
 protected:
  void StartCluster(const std::vector<std::string>& master_flags) {
    ASSERT_TRUE(MakeDirs(d_ + "/cluster").ok());
    ASSERT_TRUE(c_.StartMaster(master_flags)) << c_.MasterLogs();
    c_.StartWorker({"--map-slots", "2", "--reduce-slots", "1", "--master-timeout", "60"});
    ASSERT_TRUE(c_.WaitForWorkers(1)) << c_.MasterLogs();  // worker 1 first
    c_.StartWorker({"--map-slots", "0", "--reduce-slots", "1", "--speed", "0.05", "--master-timeout", "60"});
    ASSERT_TRUE(c_.WaitForWorkers(2)) << c_.MasterLogs();
  }
  std::string Job(const std::string& out) const {
    return "run synthetic --quiet --maps 4 --map-seconds 0.05 --map-bytes 100KB --work sleep --reducers 2 "
           "--reduce-seconds 0.2 --output " + d_ + "/" + out;
  }
  void ExpectSameParts(const std::string& ref, const std::string& out) {
    std::map<std::string, std::string> a = Parts(d_ + "/" + ref), b = Parts(d_ + "/" + out);
    std::set<std::string> names;
    for (const auto& [name, bytes] : b) names.insert(name);
    EXPECT_EQ(names, (std::set<std::string>{"_SUCCESS", "_trace.jsonl", "part-r-00000", "part-r-00001"}));
    for (const char* part : {"part-r-00000", "part-r-00001"}) {
      EXPECT_FALSE(b[part].empty()) << part;
      EXPECT_TRUE(a[part] == b[part]) << part << " differs from the reference run";
    }
  }

  TempDir tmp_{"mr-speculation-reduce"};
  std::string d_ = tmp_.path();
  DirectCluster c_{d_ + "/cluster"};
};

TEST_F(ReduceSpeculationTest, BackupOfTheSlowWorkersReduceWinsAndTheOutputIsExact) {
  ASSERT_NO_FATAL_FAILURE(StartCluster({"--heartbeat-ms", "50"}));
  CommandResult off = c_.Mr(Job("off") + " --speculative off");
  ASSERT_EQ(off.exit_code, 0) << off.err;
  CommandResult on = c_.Mr(Job("on"));  // speculation is on by default
  ASSERT_EQ(on.exit_code, 0) << on.err << c_.MasterLogs();
  ExpectSameParts("off", "on");

  // The trace: the slow reducer's backup placed on worker 1, started, ended ok and committed;
  // the attempt it backed up killed ("succeeded first"); one commit per partition.
  std::set<std::pair<std::string, int>> backups;
  std::map<std::string, int> commits;
  int placed = 0, won = 0, killed = 0, failed = 0;
  for (const auto& e : ReadTrace(d_ + "/on/_trace.jsonl")) {
    const std::string ev = e.at("event");
    const std::string task = e.value("task", "");
    if (ev == "reduce_place" && e.value("backup", false)) {
      placed++;
      EXPECT_EQ(e.at("worker"), 1) << e.dump();
    }
    if (ev == "attempt_start" && e.value("backup", false)) {
      EXPECT_EQ(task[0], 'r') << "no map backups here: " << e.dump();
      backups.insert({task, e.at("attempt").get<int>()});
    }
    if (ev == "commit") {
      commits[task]++;
      won += backups.count({task, e.at("attempt").get<int>()});
    }
    if (ev != "attempt_end") continue;
    if (e.at("status") == "failed") failed++;
    if (e.at("status") == "killed") {
      killed++;
      EXPECT_EQ(e.at("worker"), 2) << e.dump();
      EXPECT_NE(e.value("error", "").find("succeeded first"), std::string::npos) << e.dump();
    }
  }
  EXPECT_EQ(placed, 1);
  EXPECT_EQ(backups.size(), 1u);
  EXPECT_EQ(won, 1) << "the backup committed";
  EXPECT_EQ(killed, 1);
  EXPECT_EQ(failed, 0);
  EXPECT_EQ(commits, (std::map<std::string, int>{{"r-00000", 1}, {"r-00001", 1}}));
  for (const auto& e : ReadTrace(d_ + "/off/_trace.jsonl")) {
    EXPECT_FALSE(e.value("backup", false)) << "a backup with --speculative off: " << e.dump();
  }
  nlohmann::json counters = Counters(c_, "job-000002");
  EXPECT_EQ(counters.value("job.backup_reduces", int64_t{0}), 1) << counters.dump();
  EXPECT_EQ(counters.value("job.backup_reduces_won", int64_t{0}), 1) << counters.dump();
  EXPECT_EQ(counters.value("job.killed_reduces", int64_t{0}), 1) << counters.dump();
  EXPECT_EQ(counters.value("job.failed_reduces", int64_t{0}), 0) << counters.dump();
  EXPECT_NE(c_.MasterLogs().find("LATE backup of r-"), std::string::npos);
}

// The master is SIGKILLed while a reduce backup is placed or runs and restarted on the same
// state: backups are not stored, the reduce runs again, and the output is still every
// partition once, byte-identical, with nothing left in _temporary.
TEST_F(ReduceSpeculationTest, MasterRestartDuringAReduceBackupLeavesExactOutput) {
  const std::vector<std::string> master_flags = {"--worker-timeout", "10", "--heartbeat-ms", "50"};
  ASSERT_NO_FATAL_FAILURE(StartCluster(master_flags));
  CommandResult ref = c_.Mr(Job("ref") + " --speculative off");
  ASSERT_EQ(ref.exit_code, 0) << ref.err;
  auto run = std::async(std::launch::async, [this] { return c_.Mr(Job("out")); });
  const bool backed_up = FreezeWhenRunning(c_, "job-000002", [](const nlohmann::json& j) {
    return j.at("counters").value("job.backup_reduces", int64_t{0}) >= 1;
  }, 60);
  ASSERT_TRUE(backed_up) << "no moment with a reduce backup and the job running" << c_.MasterLogs();
  c_.KillMaster();
  c_.ThawWorkers();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_TRUE(c_.StartMaster(master_flags)) << c_.MasterLogs();
  CommandResult r = run.get();
  ASSERT_EQ(r.exit_code, 0) << r.err << "\nmaster logs:\n" << c_.MasterLogs();
  ExpectSameParts("ref", "out");
  EXPECT_FALSE(PathExists(d_ + "/out/_temporary"));
  int restarts = 0;
  for (const auto& e : ReadTrace(d_ + "/out/_trace.jsonl")) restarts += e.at("event") == "master_restart";
  EXPECT_EQ(restarts, 1);
}

// Refused before anything is written or started: the paths named are in the test's own
// directory and must stay absent (`timeout`: a master that did start fails the test instead
// of hanging it).
TEST(SpeculationTest, BadSpeculativeValuesAreRefused) {
  TempDir tmp("mr-speculation-flags");
  const std::string d = tmp.path();
  auto r = Sh(MrBin() + " submit synthetic --maps 1 --map-seconds 0 --output " + d +
              "/x --speculative maybe --master 127.0.0.1:1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--speculative must be on or off, not 'maybe'"), std::string::npos) << r.err;
  r = Sh("timeout 20 " + MrBin() + " master --listen 127.0.0.1:0 --state " + d + "/none --speculative-slow-task 120");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--speculative-slow-task must be in [0, 100]"), std::string::npos) << r.err;
  r = Sh("timeout 20 " + MrBin() + " master --listen 127.0.0.1:0 --state " + d + "/none --speculative-min-age soon");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--speculative-min-age"), std::string::npos) << r.err;
  EXPECT_FALSE(PathExists(d + "/none"));
  EXPECT_FALSE(PathExists(d + "/x"));
}

}  // namespace
}  // namespace mr::testing
