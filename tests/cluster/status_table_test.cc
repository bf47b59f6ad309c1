// `mr status`: the human table (header and job rows with the measured shuffle rate next
// to the share) and the rate fields of --json, on a cluster whose shuffle is slowed by a
// bandwidth cap so the rate can be seen while the job runs.
#include <algorithm>
#include <regex>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

// The table line that starts with `job`, or "" if none.
std::string RowOf(const std::string& table, const std::string& job) {
  std::istringstream in(table);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(job, 0) == 0) return line;
  }
  return "";
}

TEST(StatusTableTest, TableAndJsonShowTheMeasuredShuffleRate) {
  TempDir tmp("mr-status-table-test");
  const std::string d = tmp.path();
  // 2 workers, each serving its map outputs at 1 MB/s: 4 maps x 1 MB take about 2 s.
  constexpr double kCap = 2 * 1e6;
  ClusterProcess cluster(d + "/cluster", 2, "--shuffle-bandwidth 1MB/s");
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  const std::string master = " --master " + cluster.address();
  auto submit = Sh(MrBin() + " submit synthetic --maps 4 --map-bytes 1MB --reducers 2 --slow-start 0 --output " + d +
                   "/out" + master);
  ASSERT_EQ(submit.exit_code, 0) << submit.err;
  ASSERT_EQ(submit.out, "job-000001\n");

  // While it shuffles: a positive rate of the last 2 s in --json and in the table's row.
  double running_rate = 0;
  std::string running_table;
  bool seen = WaitForStatus(cluster.address(), "job-000001", [&](const nlohmann::json& j) {
    if (j.at("state") != "RUNNING" || j.at("shuffle_rate").get<double>() <= 0) return false;
    running_rate = j.at("shuffle_rate").get<double>();
    running_table = Sh(MrBin() + " status" + master).out;
    return true;
  }, 30);
  ASSERT_TRUE(seen) << "no shuffle rate seen while the job ran";
  // No upper bound here: the cap allows a burst (256 KiB), so a young shuffle can run
  // faster than the cap for a moment; the mean below is checked exactly.
  std::string row = RowOf(running_table, "job-000001");
  // The job may have ended between the two calls; the row is then checked below.
  if (row.find("RUNNING") != std::string::npos) {
    EXPECT_TRUE(std::regex_search(row, std::regex(R"( [0-9.]+ (B|KiB|MiB)/s )"))) << row;
  }

  ASSERT_TRUE(WaitForStatus(cluster.address(), "job-000001",
                            [](const nlohmann::json& j) { return j.at("state") == "SUCCEEDED"; }, 60));
  auto js = Sh(MrBin() + " status --json job-000001" + master);
  nlohmann::json j = nlohmann::json::parse(js.out);
  EXPECT_EQ(j.at("shuffle_rate").get<double>(), 0.0) << "a finished job moves no bytes";
  // The mean is the successful fetches' bytes over their span (first start to last end).
  double bytes = 0, first = 1e300, last = 0;
  for (const auto& e : ReadTrace(d + "/out/_trace.jsonl")) {
    if (e.at("event") != "fetch_end" || e.at("status") != "ok") continue;
    bytes += e.at("bytes").get<double>();
    first = std::min(first, e.at("start").get<double>());
    last = std::max(last, e.at("t").get<double>());
  }
  ASSERT_GE(bytes, 4e6);
  double mean = j.at("shuffle_rate_mean").get<double>();
  EXPECT_NEAR(mean, bytes / (last - first), 1e-6 * mean);
  // And the cap shows: 2 workers at 1 MB/s (plus a 256 KiB burst each) cannot average
  // much more than 2 MB/s over 4 MB.
  EXPECT_LT(mean, 2 * kCap);
  auto table = Sh(MrBin() + " status" + master);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("policy fifo, placement pull, 2 workers, 1 jobs\n"), std::string::npos) << table.out;
  // The workers table: slots busy/total, speed, measured map rate, maps queued (none: pull).
  EXPECT_TRUE(std::regex_search(table.out, std::regex(
      R"(\nWORKER +HOST +MAP +REDUCE +UNIFIED +SPEED +MAP RATE +QUEUED\n1 +127\.0\.0\.1 +0/1 +0/1 +0/0 +1 +[0-9.]+/s +0\n2 )")))
      << table.out;
  EXPECT_TRUE(std::regex_search(table.out, std::regex(
      R"(\nJOB +NAME +STATE +MAP +SHUFFLE +REDUCE +SHUFFLED +SHARE +RATE +ESTIMATE \(x, y\) +TIME\n)")))
      << table.out;
  row = RowOf(table.out, "job-000001");
  ASSERT_FALSE(row.empty()) << table.out;
  // job, name, state, map/shuffle/reduce progress, shuffled bytes, share, mean rate, estimate,
  // time: a succeeded job is done in every phase, and has no "phase" of its own.
  EXPECT_TRUE(std::regex_search(row, std::regex(
      R"(^job-000001 +synthetic +SUCCEEDED +100% +100% +100% +[0-9.]+ (KiB|MiB) +0\.00 +[0-9.]+ (KiB|MiB)/s +online )")))
      << row;
}

}  // namespace
}  // namespace mr::testing
