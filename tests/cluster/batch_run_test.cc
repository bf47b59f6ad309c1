// `mr batch run PLAN` against a real local cluster (issue 26): a plan made for another
// cluster shape, and a BalancedPools plan of two pools on a master without the capacity
// policy, are refused in one line with exit 2 and nothing submitted; a Johnson schedule runs
// and reports the measured makespan beside the prediction.
#include <gtest/gtest.h>

#include "common/file_util.h"
#include "model/makespan/batch_plan.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

constexpr const char* kJobs = R"({"jobs": [
  {"name": "A", "maps": 2, "map_seconds": 0.2, "reduces": 1, "reduce_seconds": 0.1},
  {"name": "B", "maps": 1, "map_seconds": 0.1, "reduces": 2, "reduce_seconds": 0.2}]})";

class BatchRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    ASSERT_TRUE(WriteFileAtomically(dir_ + "/jobs.json", kJobs).ok());
    auto r = Sh(MrBin() + " cluster start --workers 2 --dir " + dir_ + "/cl");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto addr = ReadFileToString(dir_ + "/cl/master.addr");
    ASSERT_TRUE(addr.ok());
    master_ = *addr;
    while (!master_.empty() && (master_.back() == '\n' || master_.back() == ' ')) master_.pop_back();
  }
  void TearDown() override { Sh(MrBin() + " cluster stop --dir " + dir_ + "/cl"); }

  // `mr batch plan` of the jobs for `workers` workers of one map and one reduce slot.
  std::string Plan(int workers) {
    const std::string plan = dir_ + "/plan" + std::to_string(workers) + ".json";
    auto r = Sh(MrBin() + " batch plan --jobs " + dir_ + "/jobs.json --workers " + std::to_string(workers) +
                " --out " + plan);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return plan;
  }
  CommandResult Run(const std::string& plan, const std::string& schedule) {
    return Sh(MrBin() + " batch run " + plan + " --master " + master_ + " --output " + dir_ + "/out --work sleep" +
              " --schedule " + schedule);
  }
  int JobsOnMaster() {
    auto r = Sh(MrBin() + " status --master " + master_ + " --json");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return static_cast<int>(nlohmann::json::parse(r.out).at("jobs").size());
  }

  TempDir tmp_{"mr-batch-run"};
  std::string dir_, master_;
};

TEST_F(BatchRunTest, RefusalsSubmitNothingAndJohnsonRuns) {
  // Planned for 3 workers; this cluster has 2.
  CommandResult r = Run(Plan(3), "johnson");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("computed for 3 workers, 3 map and 3 reduce slots; this cluster has 2 workers, 2 map and 2 "
                       "reduce slots"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(JobsOnMaster(), 0);

  // A plan for this shape whose BalancedPools runs two pools of one slot each.
  const std::string plan2 = Plan(2);
  auto text = ReadFileToString(plan2);
  ASSERT_TRUE(text.ok());
  auto plan = model::ParseBatchPlan(*text, plan2);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  plan->pools = {model::Pool{{0}, {1, 1}, 1}, model::Pool{{1}, {1, 1}, 1}};
  plan->pool_names = {"small", "large"};
  plan->jobs[1].pool = 1;
  const std::string pools = dir_ + "/pools.json";
  ASSERT_TRUE(WriteFileAtomically(pools, model::BatchPlanToJson(*plan)).ok());
  r = Run(pools, "balancedpools");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("start the master with --policy capacity"), std::string::npos) << r.err;
  EXPECT_EQ(JobsOnMaster(), 0);

  r = Run(plan2, "johnson");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2 jobs submitted (johnson, policy fifo)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("measured makespan"), std::string::npos) << r.out;
  EXPECT_EQ(JobsOnMaster(), 2);
  EXPECT_EQ(Run(plan2, "shortest").exit_code, 2);
}

}  // namespace
}  // namespace mr::testing
