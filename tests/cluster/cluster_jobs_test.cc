// End-to-end on real processes: a 3-worker cluster on loopback runs wordcount,
// sort and grep over >= 20 MB of generated input in >= 16 maps and 4 reducers;
// every output must be byte-identical to the coreutils reference. The traces
// must show the shuffle overlapping the maps and each map run exactly once.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

class ClusterJobsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir("mr-cluster-test");
    const std::string& d = tmp_->path();
    WriteCorpus(d + "/corpus-a.txt", 12u << 20, 1);
    WriteCorpus(d + "/corpus-b.txt", 9u << 20, 2);
    WriteRecords(d + "/records.txt", 210000, 3);
    cluster_ = new ClusterProcess(d + "/cluster", 3);
  }
  static void TearDownTestSuite() {
    delete cluster_;
    delete tmp_;
  }
  void SetUp() override { ASSERT_TRUE(cluster_->ok()) << cluster_->start_error(); }

  static std::string Dir() { return tmp_->path(); }
  static std::string Corpus() { return ShellQuote(Dir() + "/corpus-a.txt") + " " + ShellQuote(Dir() + "/corpus-b.txt"); }

  // Runs a job on the cluster and returns its output directory.
  static std::string RunJob(const std::string& args, const std::string& out_name) {
    std::string out = Dir() + "/" + out_name;
    auto r = Sh(MrBin() + " run " + args + " --output " + ShellQuote(out) +
                 " --reducers 4 --split-size 1MiB --master " + cluster_->address());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(PathExists(out + "/_SUCCESS"));
    EXPECT_FALSE(PathExists(out + "/_temporary")) << "temporary files left behind";
    return out;
  }

  static TempDir* tmp_;
  static ClusterProcess* cluster_;
};

TempDir* ClusterJobsTest::tmp_ = nullptr;
ClusterProcess* ClusterJobsTest::cluster_ = nullptr;

TEST_F(ClusterJobsTest, WordCountMatchesCoreutils) {
  std::string out = RunJob("wordcount --input " + Corpus(), "wc");
  auto ours = Sh("cat " + ShellQuote(out) + "/part-r-* | LC_ALL=C sort");
  auto ref = Sh("cat " + Corpus() + " | tr -cs 'A-Za-z' '\\n' | LC_ALL=C sort | uniq -c | "
                 "awk '$2 != \"\" {print $2 \"\\t\" $1}' | LC_ALL=C sort");
  ASSERT_EQ(ref.exit_code, 0);
  EXPECT_GT(ref.out.size(), 100000u);
  EXPECT_TRUE(ours.out == ref.out) << "wordcount differs from coreutils (" << ours.out.size() << " vs "
                                   << ref.out.size() << " bytes)";
  // Each part file is sorted bytewise by key.
  for (int r = 0; r < 4; ++r) {
    char part[32];
    std::snprintf(part, sizeof part, "/part-r-%05d", r);
    auto check = Sh("LC_ALL=C sort -c -t '\t' -k1,1 " + ShellQuote(out + part));
    EXPECT_EQ(check.exit_code, 0) << part << " not sorted: " << check.err;
  }

  // The trace: >= 16 maps, each run exactly once, and shuffle overlapping maps.
  auto trace = ReadTrace(out + "/_trace.jsonl");
  ASSERT_FALSE(trace.empty());
  std::map<std::string, int> map_attempts;
  double last_map_end = 0, first_fetch_end = 1e300;
  std::map<std::pair<std::string, int64_t>, std::vector<std::pair<double, double>>> fetches;
  for (const auto& e : trace) {
    std::string ev = e.at("event");
    ASSERT_TRUE(e.contains("t") && e.contains("job")) << e.dump();
    // A speculative backup is a second attempt, not a re-run (speculation is on by default).
    if (ev == "attempt_start" && e.at("task").get<std::string>()[0] == 'm' && !e.value("backup", false)) {
      map_attempts[e.at("task")]++;
    }
    if (ev == "attempt_end" && e.at("task").get<std::string>()[0] == 'm') {
      last_map_end = std::max(last_map_end, e.at("t").get<double>());
    }
    if (ev == "fetch_end") {
      first_fetch_end = std::min(first_fetch_end, e.at("t").get<double>());
      fetches[{e.at("task").get<std::string>(), e.at("src_worker").get<int64_t>()}].push_back(
          {e.at("start").get<double>(), e.at("t").get<double>()});
    }
  }
  // A reducer has at most two fetches in flight from one source worker (docs/shuffle.md,
  // "Reducer side"): counted over the fetches' [start, end] spans, an end before a start.
  for (auto& [key, spans] : fetches) {
    std::vector<std::pair<double, int>> steps;
    for (const auto& [a, b] : spans) {
      steps.emplace_back(a, 1);
      steps.emplace_back(b, -1);
    }
    std::sort(steps.begin(), steps.end());
    int open = 0;
    for (const auto& [t, d] : steps) {
      open += d;
      EXPECT_LE(open, 2) << key.first << " fetched from worker " << key.second << " three times at once";
    }
  }
  EXPECT_GE(map_attempts.size(), 16u);
  for (const auto& [task, n] : map_attempts) EXPECT_EQ(n, 1) << task << " ran " << n << " times";
  EXPECT_LT(first_fetch_end, last_map_end) << "no reducer fetched map output before the last map finished";
}

TEST_F(ClusterJobsTest, SortMatchesCoreutils) {
  std::string in = ShellQuote(Dir() + "/records.txt");
  std::string out = RunJob("sort --input " + in, "sorted");
  auto ours = Sh("cat " + ShellQuote(out) + "/part-r-*");
  auto ref = Sh("LC_ALL=C sort " + in);
  ASSERT_EQ(ref.exit_code, 0);
  EXPECT_EQ(ours.out.size(), ref.out.size());
  EXPECT_TRUE(ours.out == ref.out) << "sort output differs from LC_ALL=C sort";
  // Range partitioning spreads the records: no part holds everything.
  auto sizes = Sh("wc -c " + ShellQuote(out) + "/part-r-0000[0-3] | head -4 | awk '{print $1}'");
  EXPECT_EQ(sizes.exit_code, 0);
  std::istringstream ss(sizes.out);
  uint64_t sz = 0, nonempty = 0;
  while (ss >> sz) nonempty += sz > 0;
  EXPECT_GE(nonempty, 3u) << sizes.out;
}

TEST_F(ClusterJobsTest, GrepMatchesGrepE) {
  const std::string pattern = "shuffle|tandem [a-z]+|Ha[a-z]*p";
  std::string out = RunJob("grep --pattern " + ShellQuote(pattern) + " --input " + Corpus(), "grep");
  auto ours = Sh("cat " + ShellQuote(out) + "/part-r-* | cut -f2-");
  auto ref = Sh("grep -h -E " + ShellQuote(pattern) + " " + Corpus());
  ASSERT_EQ(ref.exit_code, 0);
  EXPECT_GT(ref.out.size(), 10000u);
  EXPECT_TRUE(ours.out == ref.out) << "grep output differs (" << ours.out.size() << " vs " << ref.out.size() << ")";
  // Keys are path:offset, globally ordered.
  auto first = Sh("head -1 " + ShellQuote(out + "/part-r-00000") + " | cut -f1");
  EXPECT_NE(first.out.find("corpus-a.txt:"), std::string::npos) << first.out;
}

}  // namespace
}  // namespace mr::testing
