// Worker labels end to end with real processes: `mr worker --label` shows in `mr status
// --json`, `mr status`'s table, /api/workers and the status page, again after the master
// restarts (the worker registers again with the same labels); `mr cluster start --label`
// labels every worker; a bad --label is a one-line usage error (exit 2) before anything
// starts. (What a policy's snapshot holds: tests/master/worker_labels_test.cc.)
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "common/file_util.h"
#include "common/units.h"
#include "tests/cluster/cluster_fixture.h"
#include "tests/web/http_client.h"

namespace mr::testing {
namespace {

using nlohmann::json;

// Worker id -> its "labels" object, from `mr status --json`'s worker_rows.
std::map<int, json> LabelsInStatus(const DirectCluster& c) {
  std::map<int, json> out;
  CommandResult r = c.Mr("status --json");
  json j = json::parse(r.out, nullptr, false);
  if (r.exit_code != 0 || j.is_discarded()) return out;
  for (const auto& w : j["worker_rows"]) out[w["id"].get<int>()] = w.value("labels", json());
  return out;
}

// The labels objects of the labelled and the plain worker, in that order, whatever ids the
// master gave them; both null when there are not exactly two workers.
std::pair<json, json> TwoWorkers(const std::map<int, json>& labels) {
  if (labels.size() != 2) return {};
  json a = labels.begin()->second, b = labels.rbegin()->second;
  return a.empty() ? std::make_pair(b, a) : std::make_pair(a, b);
}

std::optional<HostPort> HttpAddress(const std::string& file) {
  std::optional<HostPort> out;
  WaitUntil([&] {
    auto text = ReadFileToString(file);
    if (!text.ok() || text->empty()) return false;
    std::string s = *text;
    while (!s.empty() && s.back() == '\n') s.pop_back();
    if (auto hp = ParseHostPort(s); hp.ok()) out = *hp;
    return out.has_value();
  }, 10, 0.05);
  return out;
}

TEST(WorkerLabelsClusterTest, LabelsShowInStatusApiAndPageAndSurviveAMasterRestart) {
  TempDir tmp("mr-labels-cluster");
  const std::string d = tmp.path();
  DirectCluster c(d);
  const std::vector<std::string> master = {"--http", "127.0.0.1:0", "--http-addr-file", d + "/http.addr"};
  ASSERT_TRUE(c.StartMaster(master)) << c.MasterLogs();
  c.StartWorker({"--label", "rack=r1", "--label", "class=fast"});
  c.StartWorker({});
  ASSERT_TRUE(c.WaitForWorkers(2)) << c.MasterLogs();

  const json expected = {{"class", "fast"}, {"rack", "r1"}};
  auto [labelled, plain] = TwoWorkers(LabelsInStatus(c));
  EXPECT_EQ(labelled, expected);
  EXPECT_EQ(plain, json::object());

  CommandResult table = c.Mr("status");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("QUEUED  LABELS\n"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("  class=fast,rack=r1\n"), std::string::npos) << table.out;

  std::optional<HostPort> http = HttpAddress(d + "/http.addr");
  ASSERT_TRUE(http.has_value());
  json api = json::parse(webtest::Get(*http, "/api/workers").body, nullptr, false);
  ASSERT_TRUE(api.is_array()) << api;
  int with = 0;
  for (const auto& w : api) with += w["labels"] == expected ? 1 : 0;
  EXPECT_EQ(with, 1) << api;
  std::string page = webtest::Get(*http, "/").body;
  EXPECT_NE(page.find("<th>labels</th>"), std::string::npos) << page;
  EXPECT_NE(page.find("<span class=\"wlabel\">class=fast</span><span class=\"wlabel\">rack=r1</span>"),
            std::string::npos)
      << page;
  EXPECT_NE(c.MasterLogs().find("labels=class=fast,rack=r1"), std::string::npos) << c.MasterLogs();

  // A restarted master knows no workers until they register again, with their labels.
  c.KillMaster();
  ASSERT_TRUE(c.StartMaster(master)) << c.MasterLogs();
  ASSERT_TRUE(c.WaitForWorkers(2)) << c.MasterLogs();
  auto [again, plain_again] = TwoWorkers(LabelsInStatus(c));
  EXPECT_EQ(again, expected);
  EXPECT_EQ(plain_again, json::object());
}

TEST(WorkerLabelsClusterTest, ClusterStartLabelsEveryWorker) {
  TempDir tmp("mr-labels-start");
  ClusterProcess cluster(tmp.path() + "/c", 2, "--label class=small --label gen=2");
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  CommandResult r;
  json j;
  ASSERT_TRUE(WaitUntil([&] {
    r = Sh(MrBin() + " status --json --master " + cluster.address());
    j = json::parse(r.out, nullptr, false);
    return r.exit_code == 0 && !j.is_discarded() && j["worker_rows"].size() == 2;
  }, 30, 0.1)) << r.out << r.err;
  // ... and names each after its log file and work directory (worker-I).
  for (const auto& w : j["worker_rows"]) {
    const std::string name = w["labels"].value("name", "");
    EXPECT_TRUE(name == "worker-1" || name == "worker-2") << j;
    EXPECT_EQ(w["name"], name) << j;
    EXPECT_EQ(w["labels"], json({{"class", "small"}, {"gen", "2"}, {"name", name}})) << j;
  }
}

// One name per worker everywhere: in a fresh `mr cluster start`, the worker whose files are
// worker-I.log/.pid/ is the master's worker I, named worker-I, and every view says so —
// its log ("as worker I"), `mr status` ("wI worker-I"), /api/workers and `mr logs` ("on wI
// (worker-I)"). It said "w2 (worker-1)" when the files counted from 0 and the master from 1.
TEST(WorkerLabelsClusterTest, AFreshClustersWorkerIIsWorkerIEverywhere) {
  TempDir tmp("mr-names-agree");
  const std::string d = tmp.path() + "/c";
  ClusterProcess cluster(d, 3);
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  const std::string master = " --master " + cluster.address();
  CommandResult r;
  json j;
  ASSERT_TRUE(WaitUntil([&] {
    r = Sh(MrBin() + " status --json" + master);
    j = json::parse(r.out, nullptr, false);
    return r.exit_code == 0 && !j.is_discarded() && j["worker_rows"].size() == 3;
  }, 30, 0.1)) << r.out << r.err;
  for (const auto& w : j["worker_rows"]) {
    const std::string id = std::to_string(w["id"].get<int>());
    EXPECT_EQ(w["name"], "worker-" + id) << j;
    EXPECT_NE(ReadFile(d + "/worker-" + id + ".log").find("as worker " + id + " "), std::string::npos) << id;
  }
  const std::string table = Sh(MrBin() + " status" + master).out;
  for (const char* id : {"1", "2", "3"}) {
    EXPECT_TRUE(std::regex_search(table, std::regex(std::string("\nw") + id + " +worker-" + id + " "))) << table;
  }
  auto run = Sh(MrBin() + " run synthetic --quiet --maps 3 --map-seconds 0.05 --map-bytes 1KB --reducers 1 --output " +
                tmp.path() + "/out" + master);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto logs = Sh(MrBin() + " logs job-000001" + master);
  ASSERT_EQ(logs.exit_code, 0) << logs.err;
  size_t headers = 0;
  std::regex header(R"(==> job-000001 [mr]-[0-9]+ attempt [0-9]+ \(SUCCEEDED\) on w([0-9]+) \((\S+)\) <==)");
  for (std::sregex_iterator it(logs.out.begin(), logs.out.end(), header), end; it != end; ++it, ++headers) {
    EXPECT_EQ((*it)[2].str(), "worker-" + (*it)[1].str()) << (*it)[0];
  }
  EXPECT_GE(headers, 4u) << logs.out;  // 3 maps and a reduce (a speculative copy adds one)
}

TEST(WorkerLabelsClusterTest, ABadLabelIsAOneLineUsageError) {
  TempDir tmp("mr-labels-bad");
  const std::string d = tmp.path();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--label class", "--label: label 'class' is not KEY=VALUE"},
      {"--label class=", "--label: label 'class' has an empty value"},
      {"--label 'a b=c'", "--label: label key 'a b' must be"},
      {"--label class=fast --label class=slow", "--label: label key 'class' given twice"},
      {"--label " + std::string(64, 'k') + "=v", "is longer than 63 bytes"},
  };
  std::string many;
  for (int i = 0; i < 17; ++i) many += " --label k" + std::to_string(i) + "=v";
  std::vector<std::pair<std::string, std::string>> all = cases;
  all.push_back({many, "--label: at most 16 labels per worker, got 17"});
  for (const auto& [flags, expected] : all) {
    // The master address is never dialled: the flags are checked first.
    CommandResult r = Sh(MrBin() + " worker --master 127.0.0.1:1 --work-dir " + d + "/w " + flags);
    EXPECT_EQ(r.exit_code, 2) << flags << "\n" << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
  }
  EXPECT_FALSE(PathExists(d + "/w")) << "a refused worker made its work directory";
  // mr cluster start checks them before any process starts.
  CommandResult start = Sh(MrBin() + " cluster start --workers 1 --dir " + d + "/c --label class");
  EXPECT_EQ(start.exit_code, 2) << start.err;
  EXPECT_NE(start.err.find("--label: label 'class' is not KEY=VALUE"), std::string::npos) << start.err;
  EXPECT_FALSE(PathExists(d + "/c"));
}

}  // namespace
}  // namespace mr::testing
