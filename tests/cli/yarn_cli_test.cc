// `mr export yarn-fair|yarn-capacity` and `mr import ...` through the command table: files in,
// files out, the round trip a user runs (export, import, the same pools file), exit 2 on bad
// input. The formats themselves are tested in tests/yarn/yarn_config_test.cc.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/file_util.h"
#include "scheduler/policies/capacity_queues.h"
#include "scheduler/policies/pool_table.h"
#include "tests/cli/run_mr.h"

namespace mr::cli {
namespace {

std::string Read(const std::string& path) {
  Result<std::string> text = ReadFileToString(path);
  EXPECT_TRUE(text.ok()) << path;
  return text.ok() ? *text : "";
}

TEST(YarnCliTest, PoolsExportedAndImportedAreThePools) {
  TempDir dir("yarn-cli");
  const std::string pools = JoinPath(dir.path(), "pools.txt"), flex = JoinPath(dir.path(), "flex.txt");
  const std::string xml = JoinPath(dir.path(), "fair.xml"), back = JoinPath(dir.path(), "back.txt");
  ASSERT_TRUE(WriteFileAtomically(pools, "pool prod min_maps=2 min_reduces=1 weight=3\n").ok());
  ASSERT_TRUE(WriteFileAtomically(flex, "pool sla min_maps=1 max_maps=4 max_reduces=2\n").ok());
  ASSERT_EQ(RunMr({"export", "yarn-fair", "--pools", pools, "--flex-pools", flex, "--pool", "adhoc weight=0.5",
                   "--out", xml}),
            0);
  ASSERT_EQ(RunMr({"import", "yarn-fair", xml, "--out", back}), 0);
  auto table = sched::PoolTable::Parse(Read(back));
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  ASSERT_EQ(table->pools().size(), 3u);
  EXPECT_EQ(table->Lookup("prod").min_maps, 2);
  EXPECT_EQ(table->Lookup("prod").min_reduces, 1);
  EXPECT_EQ(table->Lookup("prod").weight, 3);
  EXPECT_EQ(table->Lookup("sla").max_maps, 4);
  EXPECT_EQ(table->Lookup("sla").max_reduces, 2);
  EXPECT_EQ(table->Lookup("adhoc").weight, 0.5);
  // Other container sizes, the same on both sides.
  ASSERT_EQ(RunMr({"export", "yarn-fair", "--pools", pools, "--map-container-mb", "512", "--out", xml}), 0);
  EXPECT_NE(Read(xml).find("<minResources>3072 mb, 3 vcores</minResources>"), std::string::npos);
  ASSERT_EQ(RunMr({"import", "yarn-fair", xml, "--map-container-mb", "512", "--out", back}), 0);
  table = sched::PoolTable::Parse(Read(back));
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ(table->Lookup("prod").min_maps, 2);
  EXPECT_EQ(table->Lookup("prod").min_reduces, 1);
  // Equal memory per vcore cannot be read back: refused.
  EXPECT_EQ(RunMr({"export", "yarn-fair", "--pools", pools, "--reduce-container-mb", "1024"}), 2);
}

TEST(YarnCliTest, APlansQueuesExportAndImport) {
  TempDir dir("yarn-cli");
  const std::string jobs = JoinPath(dir.path(), "jobs.json"), plan = JoinPath(dir.path(), "plan.json");
  const std::string xml = JoinPath(dir.path(), "cap.xml"), back = JoinPath(dir.path(), "queues.txt");
  ASSERT_TRUE(WriteFileAtomically(jobs, R"({"jobs": [
      {"name": "J1", "maps": 30, "map_seconds": 4, "reduces": 30, "reduce_seconds": 5},
      {"name": "J2", "maps": 30, "map_seconds": 1, "reduces": 30, "reduce_seconds": 4},
      {"name": "J3", "maps": 20, "map_seconds": 30, "reduces": 20, "reduce_seconds": 4},
      {"name": "J4", "maps": 20, "map_seconds": 6, "reduces": 20, "reduce_seconds": 30},
      {"name": "J5", "maps": 30, "map_seconds": 2, "reduces": 30, "reduce_seconds": 3}]})")
                  .ok());
  ASSERT_EQ(RunMr({"batch", "plan", "--jobs", jobs, "--workers", "30", "--out", plan}), 0);
  ASSERT_EQ(RunMr({"export", "yarn-capacity", "--plan", plan, "--out", xml}), 0);
  ASSERT_EQ(RunMr({"import", "yarn-capacity", xml, "--out", back}), 0);
  auto queues = sched::CapacityQueues::Parse(Read(back));
  ASSERT_TRUE(queues.ok()) << queues.status().ToString();
  ASSERT_EQ(queues->queues().size(), 2u);
  EXPECT_EQ(queues->Names(), "small, large");
  // The queues file mrlab's capacity policy reads, at the plan's shares (10 and 20 of 30).
  EXPECT_NEAR(queues->queues()[0].capacity + queues->queues()[1].capacity, 100, 1e-9);
}

TEST(YarnCliTest, BadInputIsExitTwo) {
  TempDir dir("yarn-cli");
  const std::string bad = JoinPath(dir.path(), "bad.xml");
  ASSERT_TRUE(WriteFileAtomically(bad, "<allocations><queue name=\"a\">").ok());
  EXPECT_EQ(RunMr({"export", "yarn-fair"}), 2);                                    // no pools
  EXPECT_EQ(RunMr({"export", "yarn-fair", "--pools", JoinPath(dir.path(), "none")}), 2);  // missing file
  EXPECT_EQ(RunMr({"export", "yarn-capacity"}), 2);                                // neither --queues nor --plan
  EXPECT_EQ(RunMr({"import", "yarn-fair", bad}), 2);                               // not well-formed
  EXPECT_EQ(RunMr({"import", "yarn-capacity", bad}), 2);
}

}  // namespace
}  // namespace mr::cli
