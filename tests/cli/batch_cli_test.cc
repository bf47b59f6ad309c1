// `mr batch ...` and `mr profile ...` through the command table: flags, exit codes, the plan file written (the
// work's output is tested beside it, in tests/model/makespan_plan_test.cc).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/file_util.h"
#include "master/state_store.h"
#include "model/makespan/aria_profile.h"
#include "model/makespan/batch_plan.h"
#include "tests/cli/run_mr.h"

namespace mr::cli {
namespace {

int RunBatch(std::vector<std::string> args) {
  args.insert(args.begin(), "batch");
  return RunMr(std::move(args));
}

constexpr const char* kJobs = R"({"jobs": [
  {"name": "J1", "maps": 1, "map_seconds": 20, "reduces": 1, "reduce_seconds": 2},
  {"name": "J2", "maps": 1, "map_seconds": 2, "reduces": 1, "reduce_seconds": 20}]})";

TEST(BatchCliTest, PlanWritesAPlanFile) {
  TempDir dir("batch-cli");
  const std::string jobs = JoinPath(dir.path(), "jobs.json"), plan = JoinPath(dir.path(), "plan.json");
  ASSERT_TRUE(WriteFileAtomically(jobs, kJobs).ok());
  ASSERT_EQ(RunBatch({"plan", "--jobs", jobs, "--workers", "1", "--out", plan}), 0);
  Result<std::string> text = ReadFileToString(plan);
  ASSERT_TRUE(text.ok());
  Result<model::BatchPlan> read = model::ParseBatchPlan(*text, plan);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->cluster, (model::BatchCluster{1, 1, 1}));
  EXPECT_DOUBLE_EQ(read->johnson.makespan, 24);
  EXPECT_EQ(RunBatch({"plan", "--jobs", jobs, "--workers", "2", "--map-slots", "4", "--reduce-slots", "2",
                      "--order", "J1,J2"}),
            0);
  EXPECT_EQ(RunBatch({"plan", "--workload", "synthetic2", "--count", "6", "--workers", "4"}), 0);
  EXPECT_EQ(RunBatch({"plan", "--workload", "synthetic2", "--count", "6", "--workers", "4", "--mean-tasks"}), 0);
}

TEST(BatchCliTest, PlanFromStoredProfiles) {
  TempDir dir("batch-cli");
  {
    auto store = master::StateStore::Open(JoinPath(dir.path(), "db"));
    ASSERT_TRUE(store.ok());
    const double stages[2][2] = {{20, 2}, {2, 20}};  // the two-job example, one task each
    for (int i = 0; i < 2; ++i) {
      const std::vector<double> maps = {stages[i][0]}, reduces = {stages[i][1]};
      const model::JobProfile p = model::ProfileFromDurations("J" + std::to_string(i + 1), maps, reduces);
      ASSERT_TRUE((*store)->PutAriaProfile(p.name, 10 + i, model::ProfileToJson(p), 10).ok());
    }
  }
  const std::string plan = JoinPath(dir.path(), "plan.json");
  ASSERT_EQ(RunBatch({"plan", "--profiles", "J1,J2", "--state", dir.path(), "--workers", "1", "--out", plan}), 0);
  Result<std::string> text = ReadFileToString(plan);
  ASSERT_TRUE(text.ok());
  Result<model::BatchPlan> read = model::ParseBatchPlan(*text, plan);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_DOUBLE_EQ(read->johnson.makespan, 24);  // J2 then J1
  EXPECT_DOUBLE_EQ(read->fifo.makespan, 42);
  EXPECT_EQ(RunBatch({"plan", "--profiles", "J1,J3", "--state", dir.path(), "--workers", "1"}), 2);
  EXPECT_EQ(RunBatch({"plan", "--profiles", "J1,J1", "--state", dir.path(), "--workers", "1"}), 2);
  EXPECT_EQ(RunBatch({"plan", "--profiles", "J1", "--workers", "1"}), 2);
}

TEST(BatchCliTest, BadUsageReturnsTwo) {
  TempDir dir("batch-cli");
  const std::string jobs = JoinPath(dir.path(), "jobs.json");
  ASSERT_TRUE(WriteFileAtomically(jobs, kJobs).ok());
  EXPECT_EQ(RunBatch({}), 2);
  EXPECT_EQ(RunBatch({"plan", "--workers", "3"}), 2);                                  // no jobs
  EXPECT_EQ(RunBatch({"plan", "--jobs", jobs, "--workload", "synthetic2", "--workers", "3"}), 2);
  EXPECT_EQ(RunBatch({"plan", "--jobs", jobs}), 2);                                    // no --workers
  EXPECT_EQ(RunBatch({"plan", "--jobs", jobs, "--workers", "0"}), 2);
  EXPECT_EQ(RunBatch({"plan", "--jobs", jobs, "--workers", "2", "--count", "3"}), 2);
  EXPECT_EQ(RunBatch({"plan", "--jobs", jobs, "--workers", "2", "--mean-tasks"}), 2);
  EXPECT_EQ(RunBatch({"plan", "--jobs", JoinPath(dir.path(), "none.json"), "--workers", "2"}), 2);
  EXPECT_EQ(RunBatch({"plan", "--jobs", jobs, "--workers", "2", "--order", "J1,J9"}), 2);
  EXPECT_EQ(RunBatch({"plan", "--workload", "nope", "--workers", "2"}), 2);
  EXPECT_EQ(RunBatch({"sweep", "--workload", "synthetic2", "--nodes", "0"}), 2);
  EXPECT_EQ(RunBatch({"sweep", "--workload", "synthetic2", "--nodes", "5:1:1"}), 2);
  EXPECT_EQ(RunBatch({"sweep", "--workload", "synthetic2"}), 2);
}

TEST(BatchCliTest, SmallSweepRuns) {
  EXPECT_EQ(RunBatch({"sweep", "--workload", "synthetic1-bimodal", "--count", "10", "--nodes", "2:8:3", "--csv"}), 0);
  EXPECT_EQ(RunBatch({"sweep", "--workload", "facebook", "--nodes", "64"}), 0);
}

// `mr profile ...`: its flags and exit codes (the report itself:
// tests/master/aria_profile_store_test.cc).
TEST(ProfileCliTest, BadUsageReturnsTwo) {
  TempDir dir("profile-cli");
  EXPECT_EQ(RunMr({"profile"}), 2);
  EXPECT_EQ(RunMr({"profile", "list"}), 2);                                       // no --state
  EXPECT_EQ(RunMr({"profile", "list", "--state", JoinPath(dir.path(), "none")}), 2);  // no store
  EXPECT_EQ(RunMr({"profile", "show", "--state", dir.path()}), 2);                // no name
  EXPECT_EQ(RunMr({"profile", "estimate", "x", "--state", dir.path(), "--map-slots", "2"}), 2);
  EXPECT_EQ(RunMr({"profile", "estimate", "x", "--state", dir.path(), "--map-slots", "0", "--reduce-slots", "1"}), 2);
}

}  // namespace
}  // namespace mr::cli
