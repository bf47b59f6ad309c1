// Two jobs submitted together complete correctly under every policy: fifo and fair
// unthrottled; klps, maxsrpt and splitsrpt (which set per-job shuffle shares) under a
// shuffle bandwidth cap, so their shares are in force while both jobs shuffle.
#include <algorithm>
#include <future>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

// Runs a word count of DIR/a.txt and a sort of DIR/r.txt at once on `cluster` (3
// reducers each, extra flags `flags`) and checks both outputs byte for byte.
void RunWordCountAndSort(ClusterProcess& cluster, const std::string& d, const std::string& flags,
                         const std::string& policy) {
  auto run = [&](const std::string& args) {
    return Sh(MrBin() + " run " + args + " --reducers 3 --split-size 512KiB " + flags + " --quiet --master " +
              cluster.address());
  };
  auto wc = std::async(std::launch::async, run, "wordcount --input " + d + "/a.txt --output " + d + "/wc");
  auto st = std::async(std::launch::async, run, "sort --input " + d + "/r.txt --output " + d + "/sorted");
  auto wr = wc.get();
  auto sr = st.get();
  ASSERT_EQ(wr.exit_code, 0) << wr.err;
  ASSERT_EQ(sr.exit_code, 0) << sr.err;
  EXPECT_TRUE(SortedOutput(d + "/wc") == WordCountReference(d + "/a.txt")) << "wordcount under " << policy;
  EXPECT_TRUE(Sh("cat " + d + "/sorted/part-r-*").out == Sh("LC_ALL=C sort " + d + "/r.txt").out)
      << "sort under " << policy;
}

class TwoJobsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TwoJobsTest, BothJobsCorrect) {
  TempDir tmp("mr-policy-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/a.txt", 6u << 20, 11);
  WriteRecords(d + "/r.txt", 50000, 12);
  ClusterProcess cluster(d + "/cluster", 3, "--policy " + GetParam());
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  ASSERT_NO_FATAL_FAILURE(RunWordCountAndSort(cluster, d, "", GetParam()));
  // The master's status lists both jobs as succeeded under this policy.
  auto status = Sh(MrBin() + " status --json --master " + cluster.address());
  ASSERT_EQ(status.exit_code, 0) << status.err;
  auto j = nlohmann::json::parse(status.out);
  EXPECT_EQ(j.at("policy"), GetParam());
  ASSERT_EQ(j.at("jobs").size(), 2u);
  for (const auto& job : j.at("jobs")) EXPECT_EQ(job.at("state"), "SUCCEEDED");
}

INSTANTIATE_TEST_SUITE_P(Policies, TwoJobsTest, ::testing::Values("fifo", "fair"));

class CappedTwoJobsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CappedTwoJobsTest, BothJobsCorrectUnderABandwidthCap) {
  TempDir tmp("mr-capped-policy-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/a.txt", 2u << 20, 21);
  WriteRecords(d + "/r.txt", 40000, 22);  // 4 MB, nearly all of it shuffled
  constexpr int kWorkers = 3;
  constexpr double kCap = 1e6;  // bytes/s per worker: the sort's shuffle needs >= 1.3 s
  ClusterProcess cluster(d + "/cluster", kWorkers, "--policy " + GetParam() + " --shuffle-bandwidth 1MB/s");
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  ASSERT_NO_FATAL_FAILURE(RunWordCountAndSort(cluster, d, "--slow-start 0", GetParam()));
  // The cap was in force: the sort's fetched bytes fit in what the workers' capped links
  // could carry over the fetches' span, plus each worker's burst and last chunk (256 KiB
  // each). An upper bound, so a loaded machine cannot break it (it only fetches slower);
  // unthrottled, the 4 MB move in a fraction of the ~1.3 s this allows.
  double bytes = 0, first = 1e300, last = 0;
  for (const auto& e : ReadTrace(d + "/sorted/_trace.jsonl")) {
    if (e.at("event") != "fetch_end" || e.at("status") != "ok") continue;
    bytes += e.at("bytes").get<double>();
    first = std::min(first, e.at("start").get<double>());
    last = std::max(last, e.at("t").get<double>());
  }
  ASSERT_GT(bytes, 3.9e6) << "the sort's shuffle moved less than its input";
  EXPECT_LE(bytes, kWorkers * (kCap * (last - first) + 2 * 256 * 1024))
      << bytes << " bytes in " << (last - first) << " s";
  auto status = Sh(MrBin() + " status --json --master " + cluster.address());
  ASSERT_EQ(status.exit_code, 0) << status.err;
  auto j = nlohmann::json::parse(status.out);
  EXPECT_EQ(j.at("policy"), GetParam());
  ASSERT_EQ(j.at("jobs").size(), 2u);
  for (const auto& job : j.at("jobs")) EXPECT_EQ(job.at("state"), "SUCCEEDED");
}

INSTANTIATE_TEST_SUITE_P(Policies, CappedTwoJobsTest, ::testing::Values("klps", "maxsrpt", "splitsrpt"));

// flex (issue 25) on a real cluster: two jobs with different metrics, correct outputs, and
// the allocations the policy computed in each job's trace and in `mr status JOB`.
TEST(FlexClusterTest, TwoJobsUnderFlexTraceTheirAllocations) {
  TempDir tmp("mr-flex-cluster-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/a.txt", 6u << 20, 31);
  WriteRecords(d + "/r.txt", 50000, 32);
  // flex plans at epochs only (the paper's), so a job that ends within one epoch of its arrival
  // has no plan: 20 ms epochs, several within these jobs' ~0.15 s even on a quiet machine.
  ClusterProcess cluster(d + "/cluster", 3, "--policy flex --flex-epoch 20ms --flex-metric stretch");
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  // Both jobs take the cluster's metric and at most 4 slots per phase.
  ASSERT_NO_FATAL_FAILURE(RunWordCountAndSort(cluster, d, "--max-slots 4", "flex"));
  for (const auto& [out, metric] : {std::pair{"/wc", "stretch"}, std::pair{"/sorted", "stretch"}}) {
    int allocations = 0;
    for (const auto& e : ReadTrace(d + out + "/_trace.jsonl")) {
      if (e.at("event") != "allocation") continue;
      ++allocations;
      EXPECT_EQ(e.at("policy"), "flex");
      EXPECT_EQ(e.at("metric"), metric);
      EXPECT_FALSE(e.at("order").get<std::string>().empty());
      const int64_t slots = e.at("slots"), min = e.at("min_slots"), max = e.at("max_slots");
      EXPECT_LE(min, slots) << e.dump();
      EXPECT_LE(slots, max) << e.dump();
      EXPECT_LE(max, 4) << "--max-slots 4: " << e.dump();
      EXPECT_TRUE(e.at("slot") == "map" || e.at("slot") == "reduce") << e.dump();
    }
    EXPECT_GT(allocations, 0) << out << ": no allocation traced";
  }
  auto status = Sh(MrBin() + " status --json --master " + cluster.address());
  ASSERT_EQ(status.exit_code, 0) << status.err;
  auto j = nlohmann::json::parse(status.out);
  EXPECT_EQ(j.at("policy"), "flex");
  ASSERT_EQ(j.at("jobs").size(), 2u);
  for (const auto& job : j.at("jobs")) {
    EXPECT_EQ(job.at("state"), "SUCCEEDED");
    const std::string id = job.at("id").is_string() ? job.at("id").get<std::string>() : job.at("id").dump();
    auto one = Sh(MrBin() + " status " + id + " --master " + cluster.address());
    ASSERT_EQ(one.exit_code, 0) << one.err;
    EXPECT_NE(one.out.find("allocation (flex):"), std::string::npos) << one.out;
    EXPECT_NE(one.out.find("for stretch"), std::string::npos) << one.out;
  }
}

// A tardiness metric without a deadline is a usage error at the client, before anything runs.
TEST(FlexClusterTest, AContradictoryMetricIsAUsageError) {
  TempDir tmp("mr-flex-usage-test");
  auto r = Sh(MrBin() + " run wordcount --input " + tmp.path() + "/none.txt --output " + tmp.path() +
              "/out --metric tardiness --master 127.0.0.1:1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--metric tardiness needs --deadline"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace mr::testing
