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

// What a job's trace says about the master restart it went through.
struct RestartFacts {
  int restarts = 0;             // master_restart events
  double t = 0;                 // the (last) restart's time
  int reduces_committed = -1;   // before it
  int maps_awaiting = -1;       // done maps left waiting for their worker
  int maps_total = 0;
  int maps_recovered = 0;       // map_recovered events
  int maps_redone = 0;          // maps that completed (attempt_end ok) after the restart
  int commits = 0;              // reduce commits, over the whole trace
  int commits_after = 0;        // of them after the restart
};

RestartFacts ReadRestartFacts(const std::vector<nlohmann::json>& trace) {
  RestartFacts f;
  for (const auto& e : trace) {
    if (e.at("event") == "job_submit") f.maps_total = e.at("maps").get<int>();
    if (e.at("event") != "master_restart") continue;
    ++f.restarts;
    f.t = e.at("t").get<double>();
    f.reduces_committed = e.at("reduces_committed").get<int>();
    f.maps_awaiting = e.at("maps_awaiting").get<int>();
  }
  for (const auto& e : trace) {
    const bool after = e.at("t").get<double>() > f.t;
    f.maps_recovered += e.at("event") == "map_recovered";
    f.maps_redone += e.at("event") == "attempt_end" && e.at("task").get<std::string>().rfind("m-", 0) == 0 &&
                     e.value("status", "") == "ok" && after;
    if (e.at("event") == "commit") {
      ++f.commits;
      f.commits_after += after;
    }
  }
  return f;
}

// The finished job's status from the restarted master: counters cover committed work once
// (maps run again count afresh; adopted maps and committed reduces come back from the
// store), so map.records_in is the input's line count (if `input` is given) and
// reduce.records_out the output's.
nlohmann::json ExpectCountersExact(const DirectCluster& c, const std::string& input, const std::string& out_dir) {
  auto status = c.Mr("status --json job-000001");
  EXPECT_EQ(status.exit_code, 0) << status.err;
  if (status.exit_code != 0) return nullptr;
  nlohmann::json job = nlohmann::json::parse(status.out);
  if (!input.empty()) {
    EXPECT_EQ(job.at("counters").value("map.records_in", int64_t{-1}), CountLines("cat " + input));
  }
  EXPECT_EQ(job.at("counters").value("reduce.records_out", int64_t{-1}), CountLines("cat " + out_dir + "/part-r-*"));
  return job;
}

std::future<CommandResult> RunWordCount(const DirectCluster& c, const std::string& d) {
  return std::async(std::launch::async, [&c, d] {
    return c.Mr("run wordcount --quiet --input " + d + "/in.txt --output " + d + "/wc --reducers 3 --split-size 256KiB");
  });
}

TEST(MasterRestartTest, JobSurvivesMasterKill) {
  TempDir tmp("mr-restart-test");
  const std::string d = tmp.path();
  // 128 maps: the job must outlast the status poll that sees its third map done. With 32
  // maps (8 MiB) it once ended between that poll and the freeze, on a loaded machine.
  WriteCorpus(d + "/in.txt", 32u << 20, 31);
  DirectCluster c(d);
  ASSERT_TRUE(c.StartMaster(kMasterFlags)) << c.MasterLogs();
  for (int i = 0; i < 3; ++i) c.StartWorker({"--master-timeout", "60"});
  auto run = RunWordCount(c, d);
  // Kill the master once the job is under way (some maps done, not finished).
  bool midway = WaitForStatus(c.addr(), "job-000001", [](const nlohmann::json& j) {
    return j.at("maps_done").get<int>() >= 3;
  }, 30);
  ASSERT_TRUE(midway) << c.MasterLogs();
  // The kill lands while the job runs, by construction: frozen workers cannot finish it.
  c.FreezeWorkers();
  ASSERT_EQ(c.JobState("job-000001"), "RUNNING") << "the job ended before the kill: nothing to test";
  c.KillMaster();
  c.ThawWorkers();
  // Not a wait for anything: the master stays down for 0.3 s, an outage the workers and
  // `mr run` ride out by reconnecting (they must, for any length up to their timeouts).
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_TRUE(c.StartMaster(kMasterFlags)) << c.MasterLogs();

  auto r = run.get();
  ASSERT_EQ(r.exit_code, 0) << r.err << "\nmaster logs:\n" << c.MasterLogs();
  EXPECT_TRUE(SortedOutput(d + "/wc") == WordCountReference(d + "/in.txt")) << "output differs after a master restart";
  EXPECT_TRUE(PathExists(d + "/wc/_SUCCESS"));
  EXPECT_FALSE(PathExists(d + "/wc/_temporary"));
  auto trace = ReadTrace(d + "/wc/_trace.jsonl");
  const RestartFacts f = ReadRestartFacts(trace);
  EXPECT_EQ(f.restarts, 1);
  // Maps done before the kill are adopted from the workers that still serve their output,
  // not run again: every map is either recovered or completed after the restart, once.
  EXPECT_GE(f.maps_recovered, 3) << "the maps done before the kill ran again";
  EXPECT_EQ(f.maps_recovered + f.maps_redone, f.maps_total);
  RecordProperty("maps_recovered", f.maps_recovered);
  // Worker numbers go on from where the old master left them, so a trace never gives two
  // workers one number.
  int max_before = 0, min_after = 1 << 30;
  for (const auto& e : trace) {
    if (!e.contains("worker")) continue;
    int w = e.at("worker").get<int>();
    if (e.at("t").get<double>() < f.t) max_before = std::max(max_before, w);
    if (e.at("event") == "map_recovered") min_after = std::min(min_after, w);
  }
  EXPECT_GT(max_before, 0);
  EXPECT_GT(min_after, max_before) << "a re-registered worker got an old worker's number";
  // The restarted master still lists the job, finished (history survives).
  nlohmann::json job = ExpectCountersExact(c, d + "/in.txt", d + "/wc");
  ASSERT_FALSE(job.is_null());
  EXPECT_EQ(job.at("state"), "SUCCEEDED");
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
  c.FreezeWorkers();  // the job cannot finish between the check and the kill
  ASSERT_EQ(c.JobState("job-000001"), "RUNNING") << "the job ended before the kill: nothing to test";
  c.KillMaster();
  c.ThawWorkers();
  ASSERT_TRUE(c.StartMaster(kMasterFlags)) << c.MasterLogs();

  auto r = run.get();
  ASSERT_EQ(r.exit_code, 0) << r.err << "\nmaster logs:\n" << c.MasterLogs();
  EXPECT_TRUE(PathExists(d + "/out/_SUCCESS"));
  EXPECT_FALSE(PathExists(d + "/out/_temporary"));
  const RestartFacts f = ReadRestartFacts(ReadTrace(d + "/out/_trace.jsonl"));
  ASSERT_EQ(f.restarts, 1);
  ASSERT_GE(f.reduces_committed, 2);
  ASSERT_LT(f.reduces_committed, kReduces) << "the job had finished before the kill: the test proves nothing";
  RecordProperty("reduces_committed_before_kill", f.reduces_committed);
  // One commit per reduce over the whole trace, and only the reduces not committed before
  // the kill committed after it.
  EXPECT_EQ(f.commits, kReduces);
  EXPECT_EQ(f.commits_after, kReduces - f.reduces_committed);
  // Every reduce's counters exactly once: the restored ones plus the re-run ones.
  nlohmann::json job = ExpectCountersExact(c, "", d + "/out");
  ASSERT_FALSE(job.is_null());
  EXPECT_EQ(job.at("state"), "SUCCEEDED");
  EXPECT_EQ(job.at("reduces_done"), kReduces);
}

// flex (docs/policies.md): a restarted master does not carry the old master's plan over; it
// recomputes the allocations at its first round from the job's stored inputs (metric,
// deadline, minimum and maximum slots, submit time), and the trace marks that plan
// (allocation events with reason "restart"). The deadline (+1 s, passed by the restart)
// must survive for the plan to predict a positive tardiness: a job without it is never late.
TEST(MasterRestartTest, FlexRecomputesItsPlanFromTheStoredInputs) {
  TempDir tmp("mr-restart-flex");
  const std::string d = tmp.path();
  DirectCluster c(d);
  std::vector<std::string> flags = kMasterFlags;
  for (const char* f : {"--policy", "flex", "--flex-epoch", "200ms"}) flags.emplace_back(f);
  ASSERT_TRUE(c.StartMaster(flags)) << c.MasterLogs();
  for (int i = 0; i < 2; ++i) c.StartWorker({"--master-timeout", "60", "--map-slots", "2"});
  auto run = std::async(std::launch::async, [&] {
    return c.Mr("run synthetic --quiet --maps 16 --map-seconds 0.3 --map-bytes 64KB --reducers 2 --reduce-seconds 0.2"
                " --slow-start 1 --metric tardiness --deadline +1s --min-slots 1 --max-slots 2 --output " + d + "/out");
  });
  ASSERT_TRUE(WaitForStatus(c.addr(), "job-000001", [](const nlohmann::json& j) {
    return j.at("maps_done").get<int>() >= 4;
  }, 60)) << c.MasterLogs();
  c.FreezeWorkers();  // the job cannot finish between the check and the kill
  ASSERT_EQ(c.JobState("job-000001"), "RUNNING") << "the job ended before the kill: nothing to test";
  c.KillMaster();
  c.ThawWorkers();
  ASSERT_TRUE(c.StartMaster(flags)) << c.MasterLogs();

  auto r = run.get();
  ASSERT_EQ(r.exit_code, 0) << r.err << "\nmaster logs:\n" << c.MasterLogs();
  const auto trace = ReadTrace(d + "/out/_trace.jsonl");
  // Events after the master_restart line are the new master's (it writes that line first).
  auto restart = std::find_if(trace.begin(), trace.end(), [](const auto& e) { return e.at("event") == "master_restart"; });
  ASSERT_NE(restart, trace.end()) << "no master_restart in the trace";
  auto submit_event = std::find_if(trace.begin(), trace.end(), [](const auto& e) { return e.at("event") == "job_submit"; });
  ASSERT_NE(submit_event, trace.end());
  const double submit = submit_event->at("t").get<double>();
  int before = 0, after = 0, marked = 0;
  bool first_after = true;
  for (auto it = trace.begin(); it != trace.end(); ++it) {
    const nlohmann::json& e = *it;
    if (e.at("event") != "allocation") continue;
    if (it < restart) {
      ++before;
      EXPECT_FALSE(e.contains("reason")) << "a plan of the first master is marked: " << e.dump();
      continue;
    }
    ++after;
    if (first_after) {
      EXPECT_EQ(e.value("reason", ""), "restart") << "the new master's first plan is not marked: " << e.dump();
      first_after = false;
    }
    if (e.value("reason", "") != "restart") continue;
    ++marked;
    // The stored inputs, as the new master's policy read them.
    EXPECT_EQ(e.at("policy"), "flex");
    EXPECT_EQ(e.at("metric"), "tardiness") << e.dump();
    EXPECT_LE(e.at("max_slots").get<int>(), 2) << e.dump();
    EXPECT_GE(e.at("min_slots").get<int>(), 1) << e.dump();
    EXPECT_FALSE(e.at("order").get<std::string>().empty());
    // Tardiness = completion - (submit + 1 s) > 0: the deadline came back from the store.
    const double completion = e.at("completion").get<double>();
    EXPECT_GT(completion, restart->at("t").get<double>()) << e.dump();
    EXPECT_NEAR(e.at("predicted").get<double>(), completion - (submit + 1), 0.05) << e.dump();
  }
  EXPECT_GT(before, 0) << "the first master never planned: the test proves nothing";
  EXPECT_GT(after, 0) << "the new master never planned";
  EXPECT_GE(marked, 1);
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
  auto run = RunWordCount(c, d);
  ASSERT_TRUE(WaitForStatus(c.addr(), "job-000001", [](const nlohmann::json& j) {
    return j.at("maps_done").get<int>() >= 6;
  }, 30)) << c.MasterLogs();
  c.FreezeWorkers();  // the job cannot finish between the check and the kills
  ASSERT_EQ(c.JobState("job-000001"), "RUNNING") << "the job ended before the kill: nothing to test";
  c.KillMaster();
  c.KillWorker(0);
  c.ThawWorkers();
  ASSERT_TRUE(c.StartMaster(kMasterFlags)) << c.MasterLogs();

  auto r = run.get();
  ASSERT_EQ(r.exit_code, 0) << r.err << "\nmaster logs:\n" << c.MasterLogs();
  EXPECT_TRUE(SortedOutput(d + "/wc") == WordCountReference(d + "/in.txt")) << "output differs";
  const RestartFacts f = ReadRestartFacts(ReadTrace(d + "/wc/_trace.jsonl"));
  EXPECT_GE(f.maps_awaiting, 6);
  EXPECT_GE(f.maps_recovered, 1) << "the survivors' outputs were not adopted";
  EXPECT_LT(f.maps_recovered, f.maps_awaiting) << "outputs of the dead worker were adopted";
  EXPECT_EQ(f.maps_recovered + f.maps_redone, f.maps_total);
  ExpectCountersExact(c, d + "/in.txt", d + "/wc");
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
  // The 2 s reduce had not ended before the stop (it cannot now): the window was there.
  ASSERT_EQ(c.JobState("job-000001"), "RUNNING") << "the job ended before worker 0 was stopped";
  c.StartWorker({"--master-timeout", "60"});
  ASSERT_TRUE(WaitForStatus(c.addr(), "job-000001", [](const nlohmann::json& j) {
    return j.at("state") == "SUCCEEDED";
  }, 60)) << c.MasterLogs();
  EXPECT_TRUE(PathExists(job_dir)) << "worker 0 was stopped: nothing could have removed its files yet";
  c.SignalWorker(0, SIGCONT);
  bool gone = WaitUntil([&] { return !PathExists(job_dir); }, 10, 0.1);
  EXPECT_TRUE(gone) << job_dir << " left behind by a worker that registered again";
}

}  // namespace
}  // namespace mr::testing
