// Job history: a finished job reads the same (status, counters, trace through the API)
// after the master is killed and restarted on its state directory, and --history-jobs
// drops the oldest finished jobs with their traces.
#include <signal.h>

#include <regex>
#include <thread>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"
#include "tests/web/http_client.h"

namespace mr::testing {
namespace {

// A master and two workers started directly, so the master can be SIGKILLed and
// restarted on the same state directory and port.
class HistoryCluster {
 public:
  explicit HistoryCluster(std::string dir) : d_(std::move(dir)) {}

  // Starts (or restarts, on the same state directory and port) the master.
  void StartMaster(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"master", "--listen", addr_.empty() ? "127.0.0.1:0" : addr_, "--state",
                                     d_ + "/state", "--addr-file", d_ + "/addr", "--heartbeat-ms", "20",
                                     "--http", "127.0.0.1:0"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::string log = d_ + "/master-" + std::to_string(++starts_) + ".log";
    (void)RemoveAll(d_ + "/addr");
    master_ = std::make_unique<ChildProcess>(args, log);
    std::regex re("status page on http://([0-9.:]+)/");
    http_.reset();
    for (int i = 0; i < 200 && !http_; ++i) {
      std::smatch m;
      std::string text = ReadFile(log);
      if (std::regex_search(text, m, re) && PathExists(d_ + "/addr")) {
        if (auto hp = ParseHostPort(m[1].str()); hp.ok()) http_ = *hp;
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
    addr_ = ReadFile(d_ + "/addr");
    while (!addr_.empty() && addr_.back() == '\n') addr_.pop_back();
  }
  void StartWorkers(int n) {
    for (int i = 0; i < n; ++i) {
      workers_.push_back(std::make_unique<ChildProcess>(
          std::vector<std::string>{"worker", "--master", addr_, "--work-dir", d_ + "/w" + std::to_string(i),
                                   "--master-timeout", "30"},
          d_ + "/worker-" + std::to_string(i) + ".log"));
    }
  }
  void KillMaster() {
    master_->Kill(SIGKILL);
    master_->Wait(5);
  }
  bool ok() const { return !addr_.empty() && http_.has_value(); }
  const std::string& addr() const { return addr_; }
  std::string Get(const std::string& target) const { return webtest::Get(*http_, target).body; }
  CommandResult Status(const std::string& job) const {
    return Sh(MrBin() + " status --json " + job + " --master " + addr_);
  }
  CommandResult RunWordcount(const std::string& input, const std::string& output) const {
    return Sh(MrBin() + " run wordcount --quiet --input " + input + " --output " + output +
              " --reducers 2 --split-size 256KiB --master " + addr_);
  }

 private:
  std::string d_;
  std::string addr_;
  std::optional<HostPort> http_;
  int starts_ = 0;
  std::unique_ptr<ChildProcess> master_;
  std::vector<std::unique_ptr<ChildProcess>> workers_;
};

TEST(JobHistoryTest, FinishedJobReadsTheSameAfterMasterRestart) {
  TempDir tmp("mr-history-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/in.txt", 1u << 20, 77);
  HistoryCluster c(d);
  c.StartMaster({"--policy", "fair"});
  ASSERT_TRUE(c.ok()) << ReadFile(d + "/master-1.log");
  c.StartWorkers(2);
  auto run = c.RunWordcount(d + "/in.txt", d + "/wc");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto before = c.Status("job-000001");
  ASSERT_EQ(before.exit_code, 0) << before.err;
  nlohmann::json b = nlohmann::json::parse(before.out);
  std::string api_before = c.Get("/api/jobs/job-000001");
  std::string trace_before = c.Get("/api/jobs/job-000001/trace");
  // What a restart used to lose: the job is done and moved data.
  EXPECT_EQ(b.at("state"), "SUCCEEDED");
  EXPECT_GE(b.at("maps_total").get<int>(), 4);
  EXPECT_EQ(b.at("maps_done"), b.at("maps_total"));
  EXPECT_EQ(b.at("reduces_done"), 2);
  EXPECT_GT(b.at("shuffle_bytes_fetched").get<uint64_t>(), 0u);
  EXPECT_EQ(b.at("shuffle_bytes_fetched"), b.at("shuffle_bytes_total"));
  EXPECT_GT(b.at("counters").value("map.records_in", int64_t{0}), 0);
  EXPECT_EQ(b.at("policy"), "fair");
  ASSERT_GT(nlohmann::json::parse(trace_before).size(), 10u);

  // Restarted under another policy: the job keeps the one it ran under.
  c.KillMaster();
  c.StartMaster({"--policy", "fifo"});
  ASSERT_TRUE(c.ok()) << ReadFile(d + "/master-2.log");
  auto after = c.Status("job-000001");
  ASSERT_EQ(after.exit_code, 0) << after.err << ReadFile(d + "/master-2.log");
  nlohmann::json a = nlohmann::json::parse(after.out);
  EXPECT_EQ(a, b) << "before:\n" << b.dump(1) << "\nafter:\n" << a.dump(1);
  EXPECT_EQ(c.Get("/api/jobs/job-000001"), api_before);
  EXPECT_EQ(c.Get("/api/jobs/job-000001/trace"), trace_before);
  EXPECT_TRUE(PathExists(a.at("trace").get<std::string>()));
}

TEST(JobHistoryTest, RetentionDropsTheOldestFinishedJobAndItsTrace) {
  TempDir tmp("mr-retention-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/in.txt", 256u << 10, 78);
  HistoryCluster c(d);
  c.StartMaster({"--history-jobs", "1"});
  ASSERT_TRUE(c.ok()) << ReadFile(d + "/master-1.log");
  c.StartWorkers(2);
  auto first = c.RunWordcount(d + "/in.txt", d + "/wc1");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  auto st1 = c.Status("job-000001");
  ASSERT_EQ(st1.exit_code, 0) << st1.err;
  std::string trace1 = nlohmann::json::parse(st1.out).at("trace");
  ASSERT_TRUE(PathExists(trace1));

  auto second = c.RunWordcount(d + "/in.txt", d + "/wc2");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  // The master applies retention on its housekeeping tick (every 250 ms).
  CommandResult gone;
  for (int i = 0; i < 50; ++i) {
    gone = c.Status("job-000001");
    if (gone.exit_code != 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
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

}  // namespace
}  // namespace mr::testing
