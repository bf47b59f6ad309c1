// `mr status`: the human table (header and job rows with the measured shuffle rate next
// to the share) and the rate fields of --json, on a cluster whose shuffle is slowed by a
// bandwidth cap so the rate can be seen while the job runs, and whose reducers wait for a
// gate the test opens, so the job is still running whenever the test reads it.
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

// The rate cell of a RUNNING row, in bytes per second (its unit applied); -1 if the row is
// not RUNNING or shows no rate.
double RunningRate(const std::string& row) {
  std::smatch m;
  if (row.find(" RUNNING ") == std::string::npos ||
      !std::regex_search(row, m, std::regex(R"( ([0-9.]+) (B|KiB|MiB)/s )"))) {
    return -1;
  }
  const double unit = m[2] == "B" ? 1 : m[2] == "KiB" ? 1024 : 1024 * 1024;
  return std::stod(m[1]) * unit;
}

TEST(StatusTableTest, TableAndJsonShowTheMeasuredShuffleRate) {
  TempDir tmp("mr-status-table-test");
  const std::string d = tmp.path();
  // 2 workers, each serving its map outputs at 1 MB/s: 4 maps x 1.5 MB take about 3 s.
  constexpr double kCap = 2 * 1e6;
  ClusterProcess cluster(d + "/cluster", 2, "--shuffle-bandwidth 1MB/s");
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  const std::string master = " --master " + cluster.address();
  ASSERT_TRUE(WaitUntil([&] {
    auto j = nlohmann::json::parse(Sh(MrBin() + " status --json" + master).out, nullptr, false);
    return !j.is_discarded() && j.value("workers", 0) == 2;
  }, 30, 0.05));
  ASSERT_TRUE(MakeDirs(d + "/in").ok());
  for (int i = 0; i < 4; ++i) WriteRecords(d + "/in/part" + std::to_string(i), 15000, 60 + i);
  // The reducers wait for a gate file the test creates once it has read the rates: the job
  // cannot end between the test's calls (speculation off: a gated reducer looks stalled).
  const std::string gate = d + "/gate";
  const std::string reducer = "while [ ! -e " + gate + " ]; do sleep 0.05; done; cat";
  auto submit = Sh(MrBin() + " submit streaming --mapper cat --reducer " + ShellQuote(reducer) + " --input " + d +
                   "/in --reducers 2 --slow-start 0 --speculative off --output " + d + "/out" + master);
  ASSERT_EQ(submit.exit_code, 0) << submit.err;
  ASSERT_EQ(submit.out, "job-000001\n");

  // While it shuffles (or within 2 s of its last fetch): a positive rate of the last 2 s in
  // --json, and in the table's row. Each is read from one reply of its own, and the job is
  // RUNNING in both, whatever the timing. The window is at least 4.7 s, a bound load cannot
  // shorten: the caps let 6 MB through no faster than 2 MB/s less two 256 KiB bursts
  // (2.7 s), and the rate stays positive for 2 s after the last byte.
  bool json_rate = false, table_rate = false;
  std::string row;
  bool seen = WaitUntil([&] {
    auto j = nlohmann::json::parse(Sh(MrBin() + " status --json job-000001" + master).out, nullptr, false);
    if (!j.is_discarded() && j.value("state", "") == "RUNNING" && j.value("shuffle_rate", 0.0) > 0) json_rate = true;
    if (!table_rate) {
      row = RowOf(Sh(MrBin() + " status" + master).out, "job-000001");
      table_rate = RunningRate(row) > 0;
    }
    return json_rate && table_rate;
  }, 60, 0.02);
  ASSERT_TRUE(seen) << "no shuffle rate seen while the job ran: json " << json_rate << ", table row " << row;
  // fifo gives its one running job the whole shuffle while output waits ("1.00"), and "-"
  // when none waits; never the "0.00" of a share that applies to nothing.
  EXPECT_TRUE(std::regex_search(row, std::regex(R"( (KiB|MiB|B) +(1\.00|-) +[0-9.]+ (B|KiB|MiB)/s )"))) << row;
  // No upper bound here: the cap allows a burst (256 KiB), so a young shuffle can run
  // faster than the cap for a moment; the mean below is checked exactly.
  ASSERT_TRUE(WriteStringToFile(gate, "").ok());

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
  ASSERT_GE(bytes, 6e6);  // 4 x 1.5 MB of input, passed through by `cat`
  double mean = j.at("shuffle_rate_mean").get<double>();
  EXPECT_NEAR(mean, bytes / (last - first), 1e-6 * mean);
  // And the cap shows: 2 workers at 1 MB/s (plus a 256 KiB burst each) cannot average
  // much more than 2 MB/s over 6 MB.
  EXPECT_LT(mean, 2 * kCap);
  auto table = Sh(MrBin() + " status" + master);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("policy fifo, placement pull, 2 workers, 1 job\n"), std::string::npos) << table.out;
  // The workers table: id and name (worker-I, as its log file), slots busy/total, speed,
  // measured map rate with its unit ("-" for a worker that happened to run no map), maps
  // queued (none: pull).
  EXPECT_TRUE(std::regex_search(table.out, std::regex(
      R"(\nWORKER +NAME +HOST +MAP +REDUCE +UNIFIED +SPEED +MAP RATE +QUEUED\n)"
      R"(w1 +worker-1 +127\.0\.0\.1 +0/1 +0/1 +0/0 +1 +([0-9.]+ maps/s/slot|-) +0\n)"
      R"(w2 +worker-2 +127\.0\.0\.1 +0/1 +0/1 +0/0 +1 +([0-9.]+ maps/s/slot|-) +0\n)")))
      << table.out;
  EXPECT_TRUE(std::regex_search(table.out, std::regex(R"(\nw[12] +worker-[12] +127\.0\.0\.1 .* [0-9.]+ maps/s/slot +0\n)")))
      << table.out;
  EXPECT_TRUE(std::regex_search(table.out, std::regex(
      R"(\nJOB +NAME +STATE +MAP +SHUFFLE +REDUCE +SHUFFLED +SHARE +RATE +ESTIMATE \(x, y\) +TIME\n)")))
      << table.out;
  row = RowOf(table.out, "job-000001");
  ASSERT_FALSE(row.empty()) << table.out;
  // job, name, state, map/shuffle/reduce progress, shuffled bytes, share ("-": ended), mean
  // rate, estimate ("n/a under fifo": fifo reads none), time: a succeeded job is done in
  // every phase, and has no "phase" of its own.
  EXPECT_TRUE(std::regex_search(row, std::regex(
      R"(^job-000001 +streaming +SUCCEEDED +100% +100% +100% +[0-9.]+ (KiB|MiB) +- +[0-9.]+ (KiB|MiB)/s +n/a under fifo )")))
      << row;
}

}  // namespace
}  // namespace mr::testing
