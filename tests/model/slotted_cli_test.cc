// `mr model slotted-gen` and `mr model slotted`: exit codes, files and the report's rows.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "model/model_cli.h"
#include "model/slotted/slotted_bounds.h"
#include "model/slotted_cli.h"
#include "model/slotted/slotted_workload.h"

namespace mr::model {
namespace {

int RunModel(std::vector<std::string> args) {
  args.insert(args.begin(), "model");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return ModelMain(static_cast<int>(argv.size()), argv.data());
}

TEST(SlottedCliTest, GenWritesThePapersWorkload) {
  TempDir dir("slotted-cli");
  const std::string path = JoinPath(dir.path(), "w.json");
  ASSERT_EQ(RunModel({"slotted-gen", "--workload", "u1-9-u10-70", "--slots", "30", "--seed", "4",
                      "--out", path}),
            0);
  auto jobs = LoadSlottedWorkload(path);
  ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
  SlottedGenOptions o;
  o.slots = 30;
  o.seed = 4;
  auto want = GenerateSlotted(*PaperWorkload("u1-9-u10-70", o));
  ASSERT_EQ(jobs->size(), want->size());
  for (size_t i = 0; i < jobs->size(); ++i) EXPECT_EQ((*jobs)[i].reduces, (*want)[i].reduces);
  const std::string custom = JoinPath(dir.path(), "c.json");
  EXPECT_EQ(RunModel({"slotted-gen", "--map", "u:2:2", "--reduce", "exp:3", "--out", custom}), 0);
  auto c = LoadSlottedWorkload(custom);
  ASSERT_TRUE(c.ok());
  for (const SlottedJob& j : *c) EXPECT_EQ(j.maps, 2);
}

TEST(SlottedCliTest, BadUsageReturnsTwo) {
  TempDir dir("slotted-cli");
  const std::string out = JoinPath(dir.path(), "w.json");
  EXPECT_EQ(RunModel({"slotted-gen", "--out", out}), 2);  // neither --workload nor --map
  EXPECT_EQ(RunModel({"slotted-gen", "--workload", "exp5-exp40", "--map", "u:1:2", "--out", out}), 2);
  EXPECT_EQ(RunModel({"slotted-gen", "--map", "u:1:2", "--out", out}), 2);  // no --reduce
  EXPECT_EQ(RunModel({"slotted-gen", "--workload", "exp1-exp1", "--out", out}), 2);
  EXPECT_EQ(RunModel({"slotted-gen", "--map", "u:3:1", "--reduce", "exp:3", "--out", out}), 2);
  ASSERT_EQ(RunModel({"slotted-gen", "--workload", "exp5-exp40", "--slots", "5", "--out", out}), 0);
  EXPECT_EQ(RunModel({"slotted", "--workload", out}), 2);  // no --policy
  EXPECT_EQ(RunModel({"slotted", "--workload", out, "--policy", "lifo"}), 2);
  EXPECT_EQ(RunModel({"slotted", "--workload", out, "--policy", "fifo", "--machines", "0"}), 2);
  EXPECT_EQ(RunModel({"slotted", "--workload", "/nonexistent.json", "--policy", "fifo"}), 2);
  EXPECT_EQ(RunModel({"slotted", "--workload", out, "--policy", "fifo,fair", "--preemptive"}), 0);
}

// The report's rows: the bound, DSRPT when preemptive, each policy, ratios to the bound;
// the per-job CSV has every job's flow time under each.
TEST(SlottedCliTest, ReportRowsAndPerJobFile) {
  TempDir dir("slotted-cli");
  const std::string path = JoinPath(dir.path(), "w.json");
  std::vector<SlottedJob> jobs = {{1, 2, {2}}, {1, 1, {1}}, {2, 1, {1, 1}}};
  ASSERT_TRUE(SaveSlottedWorkload(path, jobs, "hand").ok());
  SlottedReportOptions o;
  o.workload = path;
  o.policies = {"fifo", "fair"};
  o.machines = 2;
  o.preemptive = true;
  o.per_job = JoinPath(dir.path(), "flows.csv");
  std::ostringstream out;
  Status st = RunSlottedReport(o, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  // Bound 8 and DSRPT 11 as worked out in slotted_bounds_test.cc, preemptive fifo 10 as in
  // slotted_sim_test.cc.
  EXPECT_NE(out.str().find("3 jobs, 9 units of work, 2 machines, reduce preemptive"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("\nsrpt-bound,8,8,1.0000,5\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("\ndsrpt,11,8,1.3750,6\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("\nfifo,10,8,1.2500,5\n"), std::string::npos) << out.str();
  auto csv = ReadFileToString(o.per_job);
  ASSERT_TRUE(csv.ok());
  EXPECT_EQ(csv->substr(0, csv->find('\n')), "job,arrival,maps,reduce_tasks,reduce_units,srpt-bound,dsrpt,fifo,fair");
  EXPECT_NE(csv->find("\n1,1,2,1,2,5,6,2,"), std::string::npos) << *csv;

  o.until = 1;  // job 3 arrives in slot 2
  o.preemptive = false;
  o.per_job.clear();
  std::ostringstream first;
  ASSERT_TRUE(RunSlottedReport(o, first).ok());
  EXPECT_NE(first.str().find("2 jobs, 6 units of work"), std::string::npos) << first.str();
  EXPECT_EQ(first.str().find("dsrpt"), std::string::npos);
}

}  // namespace
}  // namespace mr::model
