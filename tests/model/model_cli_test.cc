// ModelMain's exit codes and file handling (the table output is exercised by
// bench/sim/run.sh).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/file_util.h"
#include "model/model_cli.h"
#include "model/fluid/workload.h"
#include "scheduler/scheduler.h"

namespace mr::model {
namespace {

int RunModel(std::vector<std::string> args) {
  args.insert(args.begin(), "model");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return ModelMain(static_cast<int>(argv.size()), argv.data());
}

TEST(ModelCliTest, BadUsageReturnsTwo) {
  EXPECT_EQ(RunModel({}), 2);
  EXPECT_EQ(RunModel({"frobnicate"}), 2);
  EXPECT_EQ(RunModel({"gen", "--jobs", "10"}), 2);                 // missing --load/--out
  EXPECT_EQ(RunModel({"gen", "--jobs", "ten", "--load", "0.5", "--out", "x"}), 2);
  EXPECT_EQ(RunModel({"tandem", "--workload", "/nonexistent.csv", "--policy", "fifo"}), 2);
  EXPECT_EQ(RunModel({"sweep", "--loads", "0.5,abc"}), 2);
  EXPECT_EQ(RunModel({"sweep", "--bogus"}), 2);
  EXPECT_EQ(RunModel({"sweep", "--jobs", "0"}), 2);
  EXPECT_EQ(RunModel({"sweep", "--policies", "maxsrpt,lifo"}), 2);
  EXPECT_EQ(RunModel({"slowdown", "--buckets", "0"}), 2);
}

TEST(ModelCliTest, GenThenTandem) {
  TempDir dir("model-cli");
  std::string path = JoinPath(dir.path(), "w.csv");
  ASSERT_EQ(RunModel({"gen", "--jobs", "200", "--load", "0.4", "--seed", "3", "--out", path}), 0);
  auto jobs = LoadWorkload(path);
  ASSERT_TRUE(jobs.ok());
  EXPECT_EQ(jobs->size(), 200u);
  EXPECT_EQ(RunModel({"tandem", "--workload", path, "--policy", "maxsrpt"}), 0);
  EXPECT_EQ(RunModel({"tandem", "--workload", path, "--policy", "lifo"}), 2);
  EXPECT_EQ(RunModel({"tandem", "--workload", path, "--policy", "klps", "--k", "0"}), 2);
}

TEST(ModelCliTest, TaskSimOnCsvAndBenchJson) {
  TempDir dir("model-cli");
  std::string csv = JoinPath(dir.path(), "w.csv");
  std::string json = JoinPath(dir.path(), "w.json");
  ASSERT_TRUE(WriteFileAtomically(csv, "arrival,x,y\n0,1,2\n0,3,1\n0.5,2,2\n").ok());
  ASSERT_TRUE(WriteFileAtomically(json, R"({"job_list": [{"arrival": 0, "maps": 3, "map_bytes": 1e6,
      "reducers": 3, "hint_map_seconds": 6, "hint_shuffle_bytes": 3e6}]})")
                  .ok());
  const std::vector<std::string> cluster = {"--workers",      "3", "--map-slots",         "1",
                                            "--reduce-slots", "2", "--shuffle-bandwidth", "20MB/s"};
  auto run = [&](std::vector<std::string> args, bool with_cluster = true) {
    args.insert(args.begin(), "tasksim");
    if (with_cluster) args.insert(args.end(), cluster.begin(), cluster.end());
    return RunModel(args);
  };
  for (const std::string& p : sched::KnownPolicies()) {
    EXPECT_EQ(run({"--workload", csv, "--policy", p, "--maps-per-job", "6"}), 0) << p;
    EXPECT_EQ(run({"--workload", json, "--policy", p, "--decision-latency", "0.02"}), 0) << p;
  }
  EXPECT_EQ(run({"--workload", csv, "--policy", "ps"}), 2);  // a fluid-only policy
  EXPECT_EQ(run({"--workload", json, "--policy", "fifo", "--maps-per-job", "4"}), 2);
  EXPECT_EQ(run({"--workload", "/nonexistent.csv", "--policy", "fifo"}), 2);
  EXPECT_EQ(run({"--workload", csv, "--policy", "fifo", "--decision-latency", "-1"}), 2);
  EXPECT_EQ(run({"--workload", csv, "--policy", "fifo", "--reducers", "0"}), 2);
  EXPECT_EQ(run({"--workload", csv, "--policy", "fifo", "--maps-per-job", "x"}), 2);
  EXPECT_EQ(run({"--workload", csv, "--policy", "fifo"}, false), 2);  // no cluster flags
  EXPECT_EQ(run({"--workload", csv, "--policy", "fifo", "--workers", "1", "--map-slots", "1",
                 "--reduce-slots", "1", "--shuffle-bandwidth", "0"},
                false),
            2);
}

TEST(ModelCliTest, SmallSweepRuns) {
  EXPECT_EQ(RunModel({"sweep", "--jobs", "300", "--loads", "0.3", "--csv"}), 0);
  EXPECT_EQ(RunModel({"slowdown", "--jobs", "500", "--buckets", "5"}), 0);
}

}  // namespace
}  // namespace mr::model
