// Map placement on a live cluster (issue 15, items 2 and 3): real processes on loopback.
// A master with --placement dep and given rates mu = (1, 2, 3) for workers 1..3 dispatches a
// word count's 12 or so maps at arrival to the workers' queues in proportion 1 : 2 : 3 (smooth
// weighted round robin is within one task, exact over whole cycles of 6); the queues are visible in
// /api/workers and `mr status` while the job runs; the output is byte-exact; and the job's
// sojourn time (submit to the last map output) is in the trace and status, no later than
// its response time.
#include <signal.h>

#include <gtest/gtest.h>

#include <map>
#include <regex>

#include "common/file_util.h"
#include "common/units.h"
#include "tests/cluster/cluster_fixture.h"
#include "tests/web/http_client.h"

namespace mr::testing {
namespace {

TEST(PlacementTest, DepDispatchesInProportionWithVisibleQueuesAndSojourn) {
  TempDir tmp("mr-placement-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/in.txt", 768u << 10, 31);
  DirectCluster c(d + "/cluster");
  ASSERT_TRUE(MakeDirs(d + "/cluster").ok());
  ASSERT_TRUE(c.StartMaster({"--heartbeat-ms", "20", "--http", "127.0.0.1:0", "--placement", "dep",
                             "--placement-rates", "1,2,3", "--worker-timeout", "60"}))
      << c.MasterLogs();
  std::optional<HostPort> http;
  std::regex re("status page on http://([0-9.:]+)/");
  ASSERT_TRUE(WaitUntil([&] {
    std::smatch m;
    std::string text = ReadFile(c.LatestMasterLogPath());
    if (!std::regex_search(text, m, re)) return false;
    if (auto hp = ParseHostPort(m[1].str()); hp.ok()) http = *hp;
    return true;
  }, 10, 0.05)) << c.MasterLogs();
  // Every map attempt holds its slot 0.3 s more (without CPU). Each worker registers before
  // the next starts, so worker K (id K) is the one of rate K.
  for (int i = 0; i < 3; ++i) {
    c.StartWorker({"--map-slots", "1", "--reduce-slots", "1", "--straggler-offset", "300ms", "--straggler-rate",
                   "100", "--straggler-tail", "exp", "--straggler-seed", std::to_string(i + 1)});
    ASSERT_TRUE(c.WaitForWorkers(i + 1)) << c.MasterLogs();
  }
  // Worker 3 (half the maps) is stopped before the job: its queue, filled on arrival, stays
  // full until the test has read it from /api/workers and `mr status`; then it runs.
  c.SignalWorker(2, SIGSTOP);

  // Speculation off: a backup that won would count its map on another worker than the one
  // whose queue it was dispatched to, and the proportions measure the dispatch.
  CommandResult sub = c.Mr("submit wordcount --input " + d + "/in.txt --output " + d +
                           "/wc --split-size 64KiB --reducers 2 --speculative off");
  ASSERT_EQ(sub.exit_code, 0) << sub.err;
  const std::string job = "job-000001";
  // While worker 3 is stopped: its queue in the JSON API, then the `mr status` workers table.
  int queued = 0;
  const bool seen = WaitUntil([&] {
    auto workers = nlohmann::json::parse(webtest::Get(*http, "/api/workers").body, nullptr, false);
    if (!workers.is_array()) return false;
    for (const auto& w : workers) {
      if (w.value("id", 0) == 3) queued = w.value("queued_maps", 0);
    }
    return queued >= 2;
  }, 60, 0.03);
  const std::string table = c.Mr("status").out;
  c.SignalWorker(2, SIGCONT);
  EXPECT_TRUE(seen) << "worker 3 (half the maps) never showed a queue: " << queued << c.MasterLogs();
  EXPECT_NE(table.find("placement dep"), std::string::npos) << table;
  EXPECT_TRUE(std::regex_search(table, std::regex(R"(MAP RATE +QUEUED\n(.*\n){2}w3 +\S+ +127\.0\.0\.1 .* [1-9][0-9]*\n)")))
      << "worker 3's row shows no queue: " << table;
  ASSERT_TRUE(WaitUntil([&] { return c.JobState(job) == "SUCCEEDED"; }, 120, 0.1)) << c.MasterLogs();
  auto cluster = nlohmann::json::parse(webtest::Get(*http, "/api/cluster").body, nullptr, false);
  EXPECT_EQ(cluster.value("placement", ""), "dep");

  EXPECT_EQ(SortedOutput(d + "/wc"), WordCountReference(d + "/in.txt"));

  // Where the maps ran: 12 maps over shares 1/6, 1/3, 1/2.
  std::map<int, int> ran;
  double sojourn_event = -1, sojourn_end = -1, response = -1;
  for (const auto& e : ReadTrace(d + "/wc/_trace.jsonl")) {
    const std::string ev = e.at("event");
    if (ev == "attempt_end" && e.value("status", "") == "ok" && e.at("task").get<std::string>()[0] == 'm') {
      ran[e.at("worker").get<int>()]++;
    }
    if (ev == "maps_done") sojourn_event = e.at("sojourn").get<double>();
    if (ev == "job_end") {
      response = e.at("response_time").get<double>();
      sojourn_end = e.value("sojourn", -1.0);
    }
  }
  int maps = 0;
  for (const auto& [w, n] : ran) maps += n;
  EXPECT_GE(maps, 12);
  // Within one task of maps x mu_i / sum mu (exact when maps is a multiple of 6).
  EXPECT_NEAR(ran[1], maps / 6.0, 1.0) << maps << " maps";
  EXPECT_NEAR(ran[2], maps / 3.0, 1.0) << maps << " maps";
  EXPECT_NEAR(ran[3], maps / 2.0, 1.0) << maps << " maps";
  EXPECT_GT(sojourn_event, 0.3);  // at least one map's injected delay
  EXPECT_LE(sojourn_event, response);
  EXPECT_DOUBLE_EQ(sojourn_end, sojourn_event);
  auto st = nlohmann::json::parse(c.Mr("status --json " + job).out, nullptr, false);
  ASSERT_FALSE(st.is_discarded());
  EXPECT_NEAR(st.value("sojourn_time", 0.0), sojourn_event, 1e-6);
  EXPECT_LE(st.value("sojourn_time", 0.0), st.value("end_time", 0.0) - st.value("submit_time", 0.0));
  CommandResult text = c.Mr("status " + job);
  EXPECT_NE(text.out.find("sojourn time "), std::string::npos) << text.out;
}

// A worker lost with maps in its queue: under --placement even the three workers get about
// a third of the maps each at arrival; the third worker is SIGKILLed right then, and its
// queue must return to pending and be dispatched again over the two left (a map left in a
// dead worker's queue would never run, and the job would never end). The output is exact.
TEST(PlacementTest, LostWorkersQueueIsDispatchedAgain) {
  TempDir tmp("mr-placement-lost");
  const std::string d = tmp.path();
  WriteCorpus(d + "/in.txt", 768u << 10, 37);
  DirectCluster c(d + "/cluster");
  ASSERT_TRUE(MakeDirs(d + "/cluster").ok());
  ASSERT_TRUE(c.StartMaster({"--heartbeat-ms", "20", "--worker-timeout", "1", "--placement", "even"}))
      << c.MasterLogs();
  for (int i = 0; i < 3; ++i) {
    c.StartWorker({"--map-slots", "1", "--reduce-slots", "1", "--straggler-offset", "300ms", "--straggler-rate",
                   "100", "--straggler-tail", "exp", "--straggler-seed", std::to_string(i + 1)});
  }
  ASSERT_TRUE(WaitUntil([&] {
    auto j = nlohmann::json::parse(c.Mr("status --json").out, nullptr, false);
    return !j.is_discarded() && j.value("workers", 0) == 3;
  }, 30, 0.1)) << c.MasterLogs();
  CommandResult sub = c.Mr("submit wordcount --input " + d + "/in.txt --output " + d +
                           "/wc --split-size 64KiB --reducers 1");
  ASSERT_EQ(sub.exit_code, 0) << sub.err;
  // Dispatched: every worker's queue holds some maps (the `mr status` workers table).
  ASSERT_TRUE(WaitUntil([&] {
    auto j = nlohmann::json::parse(c.Mr("status --json").out, nullptr, false);
    if (j.is_discarded() || !j.contains("worker_rows")) return false;
    int with_queue = 0;
    for (const auto& w : j["worker_rows"]) with_queue += w.value("queued_maps", 0) > 0;
    return with_queue == 3;
  }, 30, 0.02)) << c.MasterLogs();
  c.KillWorker(2);
  ASSERT_TRUE(WaitUntil([&] { return c.JobState("job-000001") == "SUCCEEDED"; }, 120, 0.1)) << c.MasterLogs();
  EXPECT_EQ(SortedOutput(d + "/wc"), WordCountReference(d + "/in.txt"));
  bool lost = false;
  for (const auto& e : ReadTrace(d + "/wc/_trace.jsonl")) lost |= e.at("event") == "worker_lost";
  EXPECT_TRUE(lost) << "the killed worker was never declared lost";
  auto after = nlohmann::json::parse(c.Mr("status --json").out, nullptr, false);
  ASSERT_FALSE(after.is_discarded());
  int queued_after = 0;
  for (const auto& w : after["worker_rows"]) queued_after += w.value("queued_maps", 0);
  EXPECT_EQ(queued_after, 0);  // nothing left in any queue
}

}  // namespace
}  // namespace mr::testing
