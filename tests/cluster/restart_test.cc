// The master is SIGKILLed mid-job and restarted on the same state directory and
// port: workers reconnect on their own, the waiting `mr run` reconnects, and the
// job completes with byte-identical output and counters that count committed work once.
#include <signal.h>

#include <algorithm>
#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

const std::vector<std::string> kMasterFlags = {"--worker-timeout", "2", "--heartbeat-ms", "50"};

int64_t Lines(const std::string& cmd) { return std::stoll(Sh(cmd + " | awk 'END {print NR}'").out); }

int RestartEvents(const std::vector<nlohmann::json>& trace, int* reduces_committed) {
  int restarts = 0;
  for (const auto& e : trace) {
    if (e.at("event") != "master_restart") continue;
    ++restarts;
    *reduces_committed = e.at("reduces_committed").get<int>();
  }
  return restarts;
}

TEST(MasterRestartTest, JobSurvivesMasterKill) {
  TempDir tmp("mr-restart-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/in.txt", 8u << 20, 31);
  DirectCluster c(d);
  ASSERT_TRUE(c.StartMaster(kMasterFlags)) << c.MasterLogs();
  for (int i = 0; i < 3; ++i) c.StartWorker({"--master-timeout", "60"});
  auto run = std::async(std::launch::async, [&] {
    return c.Mr("run wordcount --quiet --input " + d + "/in.txt --output " + d + "/wc --reducers 3 --split-size 256KiB");
  });
  // Kill the master once the job is under way (some maps done, not finished).
  bool midway = WaitForStatus(c.addr(), "job-000001", [](const nlohmann::json& j) {
    return j.at("maps_done").get<int>() >= 3;
  }, 30);
  ASSERT_TRUE(midway) << c.MasterLogs();
  c.KillMaster();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_TRUE(c.StartMaster(kMasterFlags)) << c.MasterLogs();

  auto r = run.get();
  ASSERT_EQ(r.exit_code, 0) << r.err << "\nmaster logs:\n" << c.MasterLogs();
  auto ours = Sh("cat " + d + "/wc/part-r-* | LC_ALL=C sort");
  auto ref = Sh("tr -cs 'A-Za-z' '\\n' < " + d + "/in.txt | LC_ALL=C sort | uniq -c | "
                "awk '$2 != \"\" {print $2 \"\\t\" $1}' | LC_ALL=C sort");
  EXPECT_TRUE(ours.out == ref.out) << "output differs after a master restart";
  EXPECT_TRUE(PathExists(d + "/wc/_SUCCESS"));
  EXPECT_FALSE(PathExists(d + "/wc/_temporary"));
  auto trace = ReadTrace(d + "/wc/_trace.jsonl");
  int committed = -1;
  EXPECT_EQ(RestartEvents(trace, &committed), 1);
  // Maps done before the kill are adopted from the workers that still serve their output,
  // not run again: every map is either recovered or completed after the restart, once.
  double restart_t = 0;
  int maps_total = 0;
  for (const auto& e : trace) {
    if (e.at("event") == "master_restart") restart_t = e.at("t").get<double>();
    if (e.at("event") == "job_submit") maps_total = e.at("maps").get<int>();
  }
  int recovered = 0, redone = 0;
  for (const auto& e : trace) {
    recovered += e.at("event") == "map_recovered";
    redone += e.at("event") == "attempt_end" && e.at("task").get<std::string>().rfind("m-", 0) == 0 &&
              e.value("status", "") == "ok" && e.at("t").get<double>() > restart_t;
  }
  EXPECT_GE(recovered, 3) << "the maps done before the kill ran again";
  EXPECT_EQ(recovered + redone, maps_total);
  RecordProperty("maps_recovered", recovered);
  // Worker numbers go on from where the old master left them, so a trace never gives two
  // workers one number.
  int max_before = 0, min_after = 1 << 30;
  for (const auto& e : trace) {
    if (!e.contains("worker")) continue;
    int w = e.at("worker").get<int>();
    if (e.at("t").get<double>() < restart_t) max_before = std::max(max_before, w);
    if (e.at("event") == "map_recovered") min_after = std::min(min_after, w);
  }
  EXPECT_GT(max_before, 0);
  EXPECT_GT(min_after, max_before) << "a re-registered worker got an old worker's number";
  // The restarted master still lists the job, finished (history survives).
  auto status = c.Mr("status --json job-000001");
  ASSERT_EQ(status.exit_code, 0) << status.err;
  nlohmann::json job = nlohmann::json::parse(status.out);
  EXPECT_EQ(job.at("state"), "SUCCEEDED");
  // Counters cover committed work once, across the restart: the maps re-run by the new
  // master count afresh, reduces committed before it come back from the store.
  EXPECT_EQ(job.at("counters").value("map.records_in", int64_t{-1}), Lines("cat " + d + "/in.txt"));
  EXPECT_EQ(job.at("counters").value("reduce.records_out", int64_t{-1}), Lines("cat " + d + "/wc/part-r-*"));
}

// The master dies after some reduces have committed and before the rest have: the new
// master takes the committed ones from its store (not re-run, their counters restored)
// and runs only the others. Reduces burn CPU (synthetic job) in waves of two, so the kill
// lands between commits.
TEST(MasterRestartTest, CommittedReducesSurviveMasterKill) {
  TempDir tmp("mr-restart-reduces");
  const std::string d = tmp.path();
  DirectCluster c(d);
  ASSERT_TRUE(c.StartMaster(kMasterFlags)) << c.MasterLogs();
  for (int i = 0; i < 2; ++i) c.StartWorker({"--master-timeout", "60", "--reduce-slots", "1"});
  constexpr int kReduces = 8;
  auto run = std::async(std::launch::async, [&] {
    return c.Mr("run synthetic --quiet --maps 4 --map-bytes 256KB --reducers " + std::to_string(kReduces) +
                " --reduce-seconds 0.5 --slow-start 1 --output " + d + "/out");
  });
  bool midway = WaitForStatus(c.addr(), "job-000001", [](const nlohmann::json& j) {
    return j.at("reduces_done").get<int>() >= 2;
  }, 60);
  ASSERT_TRUE(midway) << c.MasterLogs();
  c.KillMaster();
  ASSERT_TRUE(c.StartMaster(kMasterFlags)) << c.MasterLogs();

  auto r = run.get();
  ASSERT_EQ(r.exit_code, 0) << r.err << "\nmaster logs:\n" << c.MasterLogs();
  EXPECT_TRUE(PathExists(d + "/out/_SUCCESS"));
  EXPECT_FALSE(PathExists(d + "/out/_temporary"));
  auto trace = ReadTrace(d + "/out/_trace.jsonl");
  int committed = -1;
  ASSERT_EQ(RestartEvents(trace, &committed), 1);
  ASSERT_GE(committed, 2);
  ASSERT_LT(committed, kReduces) << "the job had finished before the kill: the test proves nothing";
  RecordProperty("reduces_committed_before_kill", committed);
  // One commit per reduce over the whole trace, and only the reduces not committed before
  // the kill committed after it.
  double restart_t = 0;
  for (const auto& e : trace) {
    if (e.at("event") == "master_restart") restart_t = e.at("t").get<double>();
  }
  int commits = 0, commits_after = 0;
  for (const auto& e : trace) {
    if (e.at("event") != "commit") continue;
    ++commits;
    commits_after += e.at("t").get<double>() > restart_t;
  }
  EXPECT_EQ(commits, kReduces);
  EXPECT_EQ(commits_after, kReduces - committed);
  // Every reduce's counters exactly once: the restored ones plus the re-run ones.
  auto status = c.Mr("status --json job-000001");
  ASSERT_EQ(status.exit_code, 0) << status.err;
  nlohmann::json job = nlohmann::json::parse(status.out);
  EXPECT_EQ(job.at("state"), "SUCCEEDED");
  EXPECT_EQ(job.at("reduces_done"), kReduces);
  EXPECT_EQ(job.at("counters").value("reduce.records_out", int64_t{-1}), Lines("cat " + d + "/out/part-r-*"));
}

// A worker that dies with the master cannot offer its outputs again: the new master waits
// worker_timeout for it, then runs those maps again; the survivors' maps are adopted.
TEST(MasterRestartTest, DoneMapsOfAWorkerThatDiedRunAgain) {
  TempDir tmp("mr-restart-dead-worker");
  const std::string d = tmp.path();
  WriteCorpus(d + "/in.txt", 8u << 20, 32);
  DirectCluster c(d);
  ASSERT_TRUE(c.StartMaster(kMasterFlags)) << c.MasterLogs();
  for (int i = 0; i < 3; ++i) c.StartWorker({"--master-timeout", "60"});
  auto run = std::async(std::launch::async, [&] {
    return c.Mr("run wordcount --quiet --input " + d + "/in.txt --output " + d + "/wc --reducers 3 --split-size 256KiB");
  });
  ASSERT_TRUE(WaitForStatus(c.addr(), "job-000001", [](const nlohmann::json& j) {
    return j.at("maps_done").get<int>() >= 6;
  }, 30)) << c.MasterLogs();
  c.KillMaster();
  c.KillWorker(0);
  ASSERT_TRUE(c.StartMaster(kMasterFlags)) << c.MasterLogs();

  auto r = run.get();
  ASSERT_EQ(r.exit_code, 0) << r.err << "\nmaster logs:\n" << c.MasterLogs();
  auto ours = Sh("cat " + d + "/wc/part-r-* | LC_ALL=C sort");
  auto ref = Sh("tr -cs 'A-Za-z' '\\n' < " + d + "/in.txt | LC_ALL=C sort | uniq -c | "
                "awk '$2 != \"\" {print $2 \"\\t\" $1}' | LC_ALL=C sort");
  EXPECT_TRUE(ours.out == ref.out) << "output differs";
  auto trace = ReadTrace(d + "/wc/_trace.jsonl");
  double restart_t = 0;
  int maps_total = 0, awaiting = -1;
  for (const auto& e : trace) {
    if (e.at("event") == "master_restart") {
      restart_t = e.at("t").get<double>();
      awaiting = e.at("maps_awaiting").get<int>();
    }
    if (e.at("event") == "job_submit") maps_total = e.at("maps").get<int>();
  }
  int recovered = 0, redone = 0;
  for (const auto& e : trace) {
    recovered += e.at("event") == "map_recovered";
    redone += e.at("event") == "attempt_end" && e.at("task").get<std::string>().rfind("m-", 0) == 0 &&
              e.value("status", "") == "ok" && e.at("t").get<double>() > restart_t;
  }
  EXPECT_GE(awaiting, 6);
  EXPECT_GE(recovered, 1) << "the survivors' outputs were not adopted";
  EXPECT_LT(recovered, awaiting) << "outputs of the dead worker were adopted";
  EXPECT_EQ(recovered + redone, maps_total);
  auto status = c.Mr("status --json job-000001");
  ASSERT_EQ(status.exit_code, 0) << status.err;
  nlohmann::json job = nlohmann::json::parse(status.out);
  EXPECT_EQ(job.at("counters").value("map.records_in", int64_t{-1}), Lines("cat " + d + "/in.txt"));
  EXPECT_EQ(job.at("counters").value("reduce.records_out", int64_t{-1}), Lines("cat " + d + "/wc/part-r-*"));
}

// A worker the master gave up on comes back after its job finished elsewhere. It offers the
// outputs it kept when it registers again, and the master tells it to delete them: nothing
// of a finished job stays on a worker's disk.
TEST(MasterRestartTest, WorkerBackAfterItsJobEndedDeletesTheJobsFiles) {
  TempDir tmp("mr-worker-back");
  const std::string d = tmp.path();
  DirectCluster c(d);
  ASSERT_TRUE(c.StartMaster({"--worker-timeout", "1", "--heartbeat-ms", "50"})) << c.MasterLogs();
  c.StartWorker({"--master-timeout", "60"});
  // All maps on worker 0 (the only one), then a long reduce there.
  auto submit = c.Mr("submit synthetic --maps 4 --map-bytes 256KB --reducers 1 --reduce-seconds 2 --slow-start 1"
                     " --output " + d + "/out");
  ASSERT_EQ(submit.exit_code, 0) << submit.err;
  ASSERT_TRUE(WaitForStatus(c.addr(), "job-000001", [](const nlohmann::json& j) {
    return j.at("maps_done").get<int>() == 4;
  }, 30)) << c.MasterLogs();
  const std::string job_dir = d + "/w0/j1";
  ASSERT_TRUE(PathExists(job_dir));
  c.SignalWorker(0, SIGSTOP);  // lost after 1 s: its maps and the reduce run again on worker 1
  c.StartWorker({"--master-timeout", "60"});
  ASSERT_TRUE(WaitForStatus(c.addr(), "job-000001", [](const nlohmann::json& j) {
    return j.at("state") == "SUCCEEDED";
  }, 60)) << c.MasterLogs();
  EXPECT_TRUE(PathExists(job_dir)) << "worker 0 was stopped: nothing could have removed its files yet";
  c.SignalWorker(0, SIGCONT);
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    gone = !PathExists(job_dir);
  }
  EXPECT_TRUE(gone) << job_dir << " left behind by a worker that registered again";
}

}  // namespace
}  // namespace mr::testing
