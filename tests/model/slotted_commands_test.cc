// The work of `mr model slotted-gen` and `mr model slotted`: the file written and the report's
// rows (their flags and exit codes: tests/cli/model_cli_test.cc).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "model/slotted/slotted_bounds.h"
#include "model/slotted_commands.h"
#include "model/slotted/slotted_workload.h"

namespace mr::model {
namespace {

// slotted-gen's work: the generator's jobs in the file, described by name, and the summary
// line computed from them.
TEST(SlottedCommandsTest, GenWritesTheFileAndSaysWhatIsInIt) {
  TempDir dir("slotted-cli");
  SlottedGenCommandOptions o;
  o.gen.slots = 20;
  o.gen.seed = 4;
  o.gen = *PaperWorkload("u1-9-u10-70", o.gen);
  o.name = "u1-9-u10-70";
  o.out = JoinPath(dir.path(), "w.json");
  std::ostringstream out;
  ASSERT_TRUE(RunSlottedGenCommand(o, out).ok());
  auto jobs = LoadSlottedWorkload(o.out);
  ASSERT_TRUE(jobs.ok()) << jobs.status().ToString();
  auto want = GenerateSlotted(o.gen);
  ASSERT_TRUE(want.ok());
  ASSERT_EQ(jobs->size(), want->size());
  int64_t maps = 0, reduces = 0;
  for (size_t i = 0; i < jobs->size(); ++i) {
    EXPECT_EQ((*jobs)[i].reduces, (*want)[i].reduces);
    maps += (*jobs)[i].maps;
    reduces += (*jobs)[i].reduce_units();
  }
  char line[256];
  const double n = static_cast<double>(jobs->size());
  std::snprintf(line, sizeof line, ": %zu jobs, mean %.2f map units and %.2f reduce units, %.2f units per slot\n",
                jobs->size(), maps / n, reduces / n, static_cast<double>(maps + reduces) / 20.0);
  EXPECT_EQ(out.str(), "wrote " + o.out + line);
  o.out = JoinPath(dir.path(), "no-such-dir/w.json");
  EXPECT_FALSE(RunSlottedGenCommand(o, out).ok());
}

// The report's rows: the bound, DSRPT when preemptive, each policy, ratios to the bound;
// the per-job CSV has every job's flow time under each.
TEST(SlottedCommandsTest, ReportRowsAndPerJobFile) {
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
