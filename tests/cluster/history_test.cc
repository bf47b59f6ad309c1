// Job history: a finished job reads the same (status, counters, trace through the API)
// after the master is killed and restarted on its state directory; --history-jobs drops
// the oldest finished jobs with their traces, and --history-age those that ended too long ago.
#include <signal.h>

#include <regex>
#include <thread>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"
#include "tests/web/http_client.h"

namespace mr::testing {
namespace {

// A DirectCluster (the master can be SIGKILLed and restarted on the same state directory
// and port) whose master also serves the status page, found from its log.
class HistoryCluster {
 public:
  explicit HistoryCluster(const std::string& dir) : c_(dir) {}

  // Starts (or restarts) the master with a status page on an ephemeral port.
  void StartMaster(std::vector<std::string> extra) {
    extra.insert(extra.end(), {"--heartbeat-ms", "20", "--http", "127.0.0.1:0"});
    http_.reset();
    if (!c_.StartMaster(extra)) return;
    std::regex re("status page on http://([0-9.:]+)/");
    WaitUntil([&] {
      std::smatch m;
      std::string text = ReadFile(c_.LatestMasterLogPath());
      if (!std::regex_search(text, m, re)) return false;
      if (auto hp = ParseHostPort(m[1].str()); hp.ok()) http_ = *hp;
      return true;
    }, 10, 0.05);
  }
  void StartWorkers(int n) {
    for (int i = 0; i < n; ++i) c_.StartWorker({"--master-timeout", "30"});
  }
  void KillMaster() { c_.KillMaster(); }
  // SIGKILLs every worker and reaps it: nothing of theirs can reach the master any more.
  void KillWorkers() {
    while (c_.workers() > 0) c_.KillWorker(0);
  }
  bool ok() const { return !c_.addr().empty() && http_.has_value(); }
  std::string MasterLogs() const { return c_.MasterLogs(); }
  std::string Get(const std::string& target) const { return webtest::Get(*http_, target).body; }
  CommandResult Status(const std::string& job) const { return c_.Mr("status --json " + job); }
  // Polls `mr status JOB` until the master no longer knows the job (retention runs on its
  // 250 ms housekeeping tick) or `timeout` seconds pass; returns the last answer.
  CommandResult WaitUntilDropped(const std::string& job, double timeout) const {
    CommandResult r;
    WaitUntil([&] { return (r = Status(job)).exit_code != 0; }, timeout, 0.1);
    return r;
  }
  CommandResult RunWordcount(const std::string& input, const std::string& output) const {
    return c_.Mr("run wordcount --quiet --input " + input + " --output " + output + " --reducers 2 --split-size 256KiB");
  }

 private:
  DirectCluster c_;
  std::optional<HostPort> http_;
};

TEST(JobHistoryTest, FinishedJobReadsTheSameAfterMasterRestart) {
  TempDir tmp("mr-history-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/in.txt", 1u << 20, 77);
  HistoryCluster c(d);
  c.StartMaster({"--policy", "fair"});
  ASSERT_TRUE(c.ok()) << c.MasterLogs();
  c.StartWorkers(2);
  auto run = c.RunWordcount(d + "/in.txt", d + "/wc");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto before = c.Status("job-000001");
  ASSERT_EQ(before.exit_code, 0) << before.err;
  nlohmann::json b = nlohmann::json::parse(before.out);
  std::string api_before = c.Get("/api/jobs/job-000001");
  // The sources' last `served` reports (every 250 ms) may still land after job_end, so the
  // trace read now may lack them: it must be a prefix of the final one. The final trace is
  // made, not waited for: the workers are killed (no report of theirs can come after), then
  // the master, and its trace file is then what the restarted master must serve.
  auto early = nlohmann::json::parse(c.Get("/api/jobs/job-000001/trace"), nullptr, false);
  ASSERT_TRUE(early.is_array());
  // What a restart used to lose: the job is done and moved data.
  EXPECT_EQ(b.at("state"), "SUCCEEDED");
  EXPECT_GE(b.at("maps_total").get<int>(), 4);
  EXPECT_EQ(b.at("maps_done"), b.at("maps_total"));
  EXPECT_EQ(b.at("reduces_done"), 2);
  EXPECT_GT(b.at("shuffle_bytes_fetched").get<uint64_t>(), 0u);
  EXPECT_EQ(b.at("shuffle_bytes_fetched"), b.at("shuffle_bytes_total"));
  EXPECT_GT(b.at("counters").value("map.records_in", int64_t{0}), 0);
  EXPECT_EQ(b.at("policy"), "fair");
  ASSERT_GT(early.size(), 10u);
  c.KillWorkers();
  c.KillMaster();
  nlohmann::json written = nlohmann::json::array();
  for (const auto& e : ReadTrace(b.at("trace").get<std::string>())) written.push_back(e);
  ASSERT_GE(written.size(), early.size());
  EXPECT_EQ(nlohmann::json(std::vector<nlohmann::json>(written.begin(), written.begin() + early.size())), early)
      << "the trace read before the restart is not the start of the one written";

  // Restarted under another policy: the job keeps the one it ran under.
  c.StartMaster({"--policy", "fifo"});
  ASSERT_TRUE(c.ok()) << c.MasterLogs();
  auto after = c.Status("job-000001");
  ASSERT_EQ(after.exit_code, 0) << after.err << c.MasterLogs();
  nlohmann::json a = nlohmann::json::parse(after.out);
  EXPECT_EQ(a, b) << "before:\n" << b.dump(1) << "\nafter:\n" << a.dump(1);
  EXPECT_EQ(c.Get("/api/jobs/job-000001"), api_before);
  EXPECT_EQ(nlohmann::json::parse(c.Get("/api/jobs/job-000001/trace"), nullptr, false), written);
  EXPECT_TRUE(PathExists(a.at("trace").get<std::string>()));
}

TEST(JobHistoryTest, RetentionDropsTheOldestFinishedJobAndItsTrace) {
  TempDir tmp("mr-retention-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/in.txt", 256u << 10, 78);
  HistoryCluster c(d);
  c.StartMaster({"--history-jobs", "1"});
  ASSERT_TRUE(c.ok()) << c.MasterLogs();
  c.StartWorkers(2);
  auto first = c.RunWordcount(d + "/in.txt", d + "/wc1");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  auto st1 = c.Status("job-000001");
  ASSERT_EQ(st1.exit_code, 0) << st1.err;
  std::string trace1 = nlohmann::json::parse(st1.out).at("trace");
  ASSERT_TRUE(PathExists(trace1));

  auto second = c.RunWordcount(d + "/in.txt", d + "/wc2");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  CommandResult gone = c.WaitUntilDropped("job-000001", 5);
  EXPECT_NE(gone.exit_code, 0);
  EXPECT_NE(gone.err.find("no job job-000001"), std::string::npos) << gone.err;
  EXPECT_FALSE(PathExists(trace1));
  EXPECT_TRUE(PathExists(d + "/wc1/_SUCCESS")) << "outputs are the user's: retention never removes them";
  auto st2 = c.Status("job-000002");
  ASSERT_EQ(st2.exit_code, 0) << st2.err;
  nlohmann::json j2 = nlohmann::json::parse(st2.out);
  EXPECT_EQ(j2.at("state"), "SUCCEEDED");
  EXPECT_TRUE(PathExists(j2.at("trace").get<std::string>()));
}

TEST(JobHistoryTest, AgeLimitDropsJobsThatEndedLongAgo) {
  TempDir tmp("mr-history-age");
  const std::string d = tmp.path();
  WriteCorpus(d + "/in.txt", 256u << 10, 79);
  HistoryCluster c(d);
  c.StartMaster({"--history-age", "3s"});  // the count limit stays at its default of 1000
  ASSERT_TRUE(c.ok()) << c.MasterLogs();
  c.StartWorkers(2);
  auto run = c.RunWordcount(d + "/in.txt", d + "/wc");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto st = c.Status("job-000001");
  ASSERT_EQ(st.exit_code, 0) << st.err;
  nlohmann::json j = nlohmann::json::parse(st.out);
  ASSERT_EQ(j.at("state"), "SUCCEEDED");
  const std::string trace = j.at("trace");
  ASSERT_TRUE(PathExists(trace));
  // Dropped on the first housekeeping tick after 3 s have passed.
  CommandResult gone = c.WaitUntilDropped("job-000001", 10);
  EXPECT_NE(gone.exit_code, 0);
  EXPECT_NE(gone.err.find("no job job-000001"), std::string::npos) << gone.err;
  EXPECT_FALSE(PathExists(trace));
  EXPECT_TRUE(PathExists(d + "/wc/_SUCCESS")) << "outputs are the user's: retention never removes them";
}

}  // namespace
}  // namespace mr::testing
