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
  // slotted_sim_test.cc. T = 2 (job 3 arrives in slot 2). Within T, sum of min(f, 2) - a + 1:
  //  bound: flows 5, 1, 2 (finish 5, 1, 3): 2 + 1 + 1 = 4; mean 8/3; sorted 1, 2, 5.
  //  dsrpt: flows 6, 2, 3 (finish 6, 2, 4): 2 + 2 + 1 = 5, ratio 5/4; sorted 2, 3, 6.
  //  fifo: flows 2, 4, 4 (finish 2, 4, 5): 2 + 2 + 1 = 5; sorted 2, 4, 4.
  // Nearest-rank percentiles of 3 values: p50 the 2nd, p90 and p99 the 3rd.
  EXPECT_NE(out.str().find("3 jobs, 9 units of work, 2 machines, reduce preemptive; T = 2"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("\nsrpt-bound,8,8,1.0000,5,4,1.0000,2.667,2,5,5,5\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("\ndsrpt,11,8,1.3750,6,5,1.2500,3.667,3,6,6,6\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("\nfifo,10,8,1.2500,5,5,1.2500,3.333,4,4,4,4\n"), std::string::npos) << out.str();
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
  // Non-preemptive: the floor instead, ceil(M/N) + longest reduce: job 1 1 + 2, job 2 1 + 1.
  EXPECT_NE(first.str().find("\nnp-floor,5,"), std::string::npos) << first.str();

  // The paper's own baselines run beside the live policies (they take no policy flags).
  o.policies = {"paper-fifo", "paper-fair", "asrpt"};
  o.policy_flags = {{"asrpt-virtual", "present"}};
  std::ostringstream baselines;
  ASSERT_TRUE(RunSlottedReport(o, baselines).ok());
  EXPECT_NE(baselines.str().find("\npaper-fifo,"), std::string::npos) << baselines.str();
  EXPECT_NE(baselines.str().find("\npaper-fair,"), std::string::npos) << baselines.str();
  o.policy_flags = {{"asrpt-virtual", "sometimes"}};
  EXPECT_FALSE(RunSlottedReport(o, baselines).ok());
}

}  // namespace
}  // namespace mr::model
