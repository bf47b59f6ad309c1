// `mr model mst-trace` on a real recorded run: three synthetic jobs of two 0.2 s maps on a
// local two-worker cluster, then the master's traces analysed (docs/mst.md, "A run's trace
// against the model"). Structure and the bounds the run cannot break are asserted (every
// map counted once, a sojourn at least one map's work and at most the job's response, a
// service time at least the work); the model's numbers depend on timing and are not.
#include <gtest/gtest.h>

#include "common/file_util.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

TEST(MstTraceCliTest, AnalysesARecordedRun) {
  TempDir tmp("mr-mst-trace-cli-test");
  const std::string d = tmp.path();
  ClusterProcess cluster(d + "/cluster", 2, "--policy fifo --map-slots 1 --reduce-slots 1");
  ASSERT_TRUE(cluster.ok()) << cluster.start_error();
  for (int i = 1; i <= 3; ++i) {
    auto submit =
        Sh(MrBin() + " submit synthetic --maps 2 --map-seconds 0.2 --work sleep --reducers 1" +
           " --reduce-seconds 0.01 --output " + d + "/out" + std::to_string(i) + " --master " +
           cluster.address());
    ASSERT_EQ(submit.exit_code, 0) << submit.err;
  }
  for (const char* job : {"job-000001", "job-000002", "job-000003"}) {
    ASSERT_TRUE(WaitForStatus(
        cluster.address(), job,
        [](const nlohmann::json& j) { return j.value("state", "") == "SUCCEEDED"; }, 120))
        << job;
  }
  auto run = Sh(MrBin() + " model mst-trace --json --trace " + d + "/cluster/state");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["jobs"], 3);
  EXPECT_TRUE(j["excluded"].empty());
  int tasks = 0;
  for (const auto& n : j["nodes"]) {
    tasks += n["tasks"].get<int>();
    EXPECT_GE(n["service"]["mean"].get<double>(), 0.2) << n.dump();
    EXPECT_EQ(n["slots"], 1) << n.dump();
  }
  EXPECT_EQ(tasks, 6);
  ASSERT_EQ(j["sojourn"]["values"].size(), 3u);
  for (const auto& v : j["sojourn"]["values"]) {
    EXPECT_GE(v.get<double>(), 0.2);
    EXPECT_LE(v.get<double>(), j["sojourn"]["max"].get<double>());
  }
  ASSERT_EQ(j["predictions"].size(), 4u);
  EXPECT_EQ(j["predictions"][0]["law"], "dtd");
  EXPECT_EQ(j["assumptions"].size(), 9u);

  auto text = Sh(MrBin() + " model mst-trace --trace " + d + "/cluster/state");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("# 3 jobs (0 excluded), 2 maps each"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("MST measured "), std::string::npos) << text.out;
  auto missing = Sh(MrBin() + " model mst-trace --trace " + d + "/nothing-here");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("nothing-here"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace mr::testing
