// `mr worker --fetches-per-source 1` (docs/shuffle.md, "Reducer side"): on a 3-worker
// cluster on loopback whose workers each run two maps at once, a reducer never has two
// fetches from one source worker in flight together. Read from the trace's fetch_end
// events ([start, t] of every fetch tried), the counterpart of cluster_jobs_test's "at most
// two" for the default. The job's output is checked too, so a rule that starved a reducer
// would show.
#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

// The most fetches in flight together among `spans` ([start, end]); an end at the instant
// of a start closes first.
int MostAtOnce(const std::vector<std::pair<double, double>>& spans) {
  std::vector<std::pair<double, int>> steps;
  for (const auto& [a, b] : spans) {
    steps.emplace_back(a, 1);
    steps.emplace_back(b, -1);
  }
  std::sort(steps.begin(), steps.end());
  int open = 0, most = 0;
  for (const auto& [t, d] : steps) most = std::max(most, open += d);
  return most;
}

TEST(FetchesPerSourceTest, OneFetchPerReducerAndSourceNeverOverlaps) {
  TempDir tmp("mr-fetches-per-source-test");
  const std::string corpus = tmp.path() + "/corpus.txt";
  WriteCorpus(corpus, 12u << 20, 5);
  ClusterProcess cluster(tmp.path() + "/cluster", 3, "--map-slots 2 --fetches-per-source 1");
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  const std::string out = tmp.path() + "/wc";
  auto run = Sh(MrBin() + " run wordcount --input " + ShellQuote(corpus) + " --output " + ShellQuote(out) +
                " --reducers 2 --split-size 512KiB --master " + cluster.address());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto ours = Sh("cat " + ShellQuote(out) + "/part-r-* | LC_ALL=C sort");
  auto ref = Sh("tr -cs 'A-Za-z' '\\n' < " + ShellQuote(corpus) +
                " | LC_ALL=C sort | uniq -c | awk '$2 != \"\" {print $2 \"\\t\" $1}' | LC_ALL=C sort");
  ASSERT_EQ(ref.exit_code, 0);
  EXPECT_TRUE(ours.out == ref.out) << "wordcount differs from coreutils";

  auto trace = ReadTrace(out + "/_trace.jsonl");
  ASSERT_FALSE(trace.empty());
  std::map<std::pair<std::string, int64_t>, std::vector<std::pair<double, double>>> fetches;
  for (const auto& e : trace) {
    if (e.at("event") != "fetch_end") continue;
    fetches[{e.at("task").get<std::string>(), e.at("src_worker").get<int64_t>()}].push_back(
        {e.at("start").get<double>(), e.at("t").get<double>()});
  }
  // The check has something to see: every (reducer, source) pair fetched several runs
  // (24 maps over 3 workers), so a second fetch could have started beside the first.
  size_t pairs_with_several = 0;
  for (const auto& [key, spans] : fetches) {
    pairs_with_several += spans.size() >= 2;
    EXPECT_EQ(MostAtOnce(spans), 1) << key.first << " fetched from worker " << key.second
                                    << " twice at once under --fetches-per-source 1";
  }
  EXPECT_GE(pairs_with_several, 4u) << "too few fetches per (reducer, source) for the check to mean anything";
}

}  // namespace
}  // namespace mr::testing
