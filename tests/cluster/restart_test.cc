// The master is SIGKILLed mid-job and restarted on the same state directory and
// port: workers reconnect on their own, the waiting `mr run` reconnects, and the
// job completes with byte-identical output.
#include <signal.h>

#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

TEST(MasterRestartTest, JobSurvivesMasterKill) {
  TempDir tmp("mr-restart-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/in.txt", 8u << 20, 31);
  auto master_args = [&](const std::string& listen) {
    return std::vector<std::string>{"master", "--listen", listen, "--state", d + "/state", "--addr-file",
                                    d + "/addr", "--worker-timeout", "2", "--heartbeat-ms", "50"};
  };
  auto master = std::make_unique<ChildProcess>(master_args("127.0.0.1:0"), d + "/master.log");
  for (int i = 0; i < 100 && !PathExists(d + "/addr"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::string addr = ReadFile(d + "/addr");
  while (!addr.empty() && addr.back() == '\n') addr.pop_back();
  ASSERT_FALSE(addr.empty());
  std::vector<std::unique_ptr<ChildProcess>> workers;
  for (int i = 0; i < 3; ++i) {
    workers.push_back(std::make_unique<ChildProcess>(
        std::vector<std::string>{"worker", "--master", addr, "--work-dir", d + "/w" + std::to_string(i),
                                 "--master-timeout", "60"},
        d + "/worker-" + std::to_string(i) + ".log"));
  }
  auto run = std::async(std::launch::async, [&] {
    return Sh(MrBin() + " run wordcount --quiet --input " + d + "/in.txt --output " + d +
              "/wc --reducers 3 --split-size 256KiB --master " + addr);
  });
  // Kill the master once the job is under way (some maps done, not finished).
  bool midway = WaitForStatus(addr, "job-000001", [](const nlohmann::json& j) {
    return j.at("maps_done").get<int>() >= 3;
  }, 30);
  ASSERT_TRUE(midway) << ReadFile(d + "/master.log");
  master->Kill(SIGKILL);
  master->Wait(5);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  master = std::make_unique<ChildProcess>(master_args(addr), d + "/master.log");

  auto r = run.get();
  ASSERT_EQ(r.exit_code, 0) << r.err << "\nmaster log:\n" << ReadFile(d + "/master.log");
  auto ours = Sh("cat " + d + "/wc/part-r-* | LC_ALL=C sort");
  auto ref = Sh("tr -cs 'A-Za-z' '\\n' < " + d + "/in.txt | LC_ALL=C sort | uniq -c | "
                "awk '$2 != \"\" {print $2 \"\\t\" $1}' | LC_ALL=C sort");
  EXPECT_TRUE(ours.out == ref.out) << "output differs after a master restart";
  EXPECT_TRUE(PathExists(d + "/wc/_SUCCESS"));
  EXPECT_FALSE(PathExists(d + "/wc/_temporary"));
  auto trace = ReadTrace(d + "/wc/_trace.jsonl");
  int restarts = 0;
  for (const auto& e : trace) restarts += e.at("event") == "master_restart";
  EXPECT_EQ(restarts, 1);
  // The restarted master still lists the job, finished (history survives).
  auto status = Sh(MrBin() + " status --json job-000001 --master " + addr);
  ASSERT_EQ(status.exit_code, 0) << status.err;
  nlohmann::json job = nlohmann::json::parse(status.out);
  EXPECT_EQ(job.at("state"), "SUCCEEDED");
  // Counters cover committed work once, across the restart: the maps re-run by the new
  // master count afresh, reduces committed before it come back from the store.
  int64_t in_lines = std::stoll(Sh("wc -l < " + d + "/in.txt").out);
  int64_t out_lines = std::stoll(Sh("cat " + d + "/wc/part-r-* | wc -l").out);
  EXPECT_EQ(job.at("counters").value("map.records_in", int64_t{-1}), in_lines);
  EXPECT_EQ(job.at("counters").value("reduce.records_out", int64_t{-1}), out_lines);
}

}  // namespace
}  // namespace mr::testing
