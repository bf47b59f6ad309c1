// Two jobs submitted together complete correctly under fifo and under fair.
#include <future>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

class TwoJobsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TwoJobsTest, BothJobsCorrect) {
  TempDir tmp("mr-policy-test");
  const std::string d = tmp.path();
  WriteCorpus(d + "/a.txt", 6u << 20, 11);
  WriteRecords(d + "/r.txt", 50000, 12);
  ClusterProcess cluster(d + "/cluster", 3, "--policy " + GetParam());
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  auto run = [&](const std::string& args) {
    return Sh(MrBin() + " run " + args + " --reducers 3 --split-size 512KiB --quiet --master " + cluster.address());
  };
  auto wc = std::async(std::launch::async, run, "wordcount --input " + d + "/a.txt --output " + d + "/wc");
  auto st = std::async(std::launch::async, run, "sort --input " + d + "/r.txt --output " + d + "/sorted");
  auto wr = wc.get();
  auto sr = st.get();
  ASSERT_EQ(wr.exit_code, 0) << wr.err;
  ASSERT_EQ(sr.exit_code, 0) << sr.err;
  EXPECT_TRUE(SortedOutput(d + "/wc") == WordCountReference(d + "/a.txt")) << "wordcount under " << GetParam();
  EXPECT_TRUE(Sh("cat " + d + "/sorted/part-r-*").out == Sh("LC_ALL=C sort " + d + "/r.txt").out)
      << "sort under " << GetParam();
  // The master's status lists both jobs as succeeded under this policy.
  auto status = Sh(MrBin() + " status --json --master " + cluster.address());
  ASSERT_EQ(status.exit_code, 0) << status.err;
  auto j = nlohmann::json::parse(status.out);
  EXPECT_EQ(j.at("policy"), GetParam());
  ASSERT_EQ(j.at("jobs").size(), 2u);
  for (const auto& job : j.at("jobs")) EXPECT_EQ(job.at("state"), "SUCCEEDED");
}

INSTANTIATE_TEST_SUITE_P(Policies, TwoJobsTest, ::testing::Values("fifo", "fair"));

}  // namespace
}  // namespace mr::testing
