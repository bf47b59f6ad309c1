// `mr experiment run|report` end to end on a real local cluster (2 workers, 3 tiny jobs,
// one policy): the results directory holds the CSV rows, the summary and real PNGs; a
// second run redoes nothing (resumable) while a run without its DONE marker is redone;
// `report` rebuilds the tables and plots without a cluster.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <regex>
#include <set>

#include "common/file_util.h"
#include "experiment/job_results.h"
#include "experiment/report.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

class ExperimentCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteStringToFile(tmp_.path() + "/tiny.csv",
                                  "arrival,maps,map_seconds,shuffle_bytes,reducers,reduce_seconds\n"
                                  "0,2,0.2,200000,1,0.1\n0.3,2,0.1,100000,1,0\n0.6,1,0.2,100000,1,0\n")
                    .ok());
    file_ = tmp_.path() + "/tiny.yaml";
    ASSERT_TRUE(WriteStringToFile(file_,
                                  "name: tiny\n"
                                  "cluster:\n  workers:\n    - count: 2\n      shuffle_bandwidth: 20MB/s\n"
                                  "workload:\n  csv: tiny.csv\n"
                                  "policies:\n  - fifo\n")
                    .ok());
    results_ = tmp_.path() + "/results";
    dir_ = results_ + "/tiny";
  }
  CommandResult Run() { return Sh(MrBin() + " experiment run " + file_ + " --results " + results_ + " 2>&1"); }
  static std::string Read(const std::string& path) {
    auto text = ReadFileToString(path);
    return text.ok() ? *text : std::string();
  }
  TempDir tmp_{"mr-experiment-cli"};
  std::string file_, results_, dir_;
};

TEST_F(ExperimentCliTest, RunWritesResultsResumesAndReportRebuilds) {
  CommandResult first = Run();
  ASSERT_EQ(first.exit_code, 0) << first.out;
  EXPECT_NE(first.out.find("calibrate-1.0"), std::string::npos) << "no stored calibration: one is made first\n"
                                                              << first.out;
  EXPECT_NE(first.out.find("fifo-1: done"), std::string::npos) << first.out;

  std::string csv = Read(dir_ + "/jobs.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4) << csv;  // header + 3 jobs
  EXPECT_EQ(csv.rfind("policy,rep,job,arrival,maps,", 0), 0u) << csv;
  EXPECT_NE(csv.find("\nfifo,1,2,0.6,1,0.2,100000,1,"), std::string::npos) << csv;
  EXPECT_NE(Read(dir_ + "/summary.md").find("| fifo | burn | 1 | 3 |"), std::string::npos);
  for (const char* png : {"scatter.png", "cdf.png", "gantt.png"}) {
    EXPECT_TRUE(experiment::IsPngFile(dir_ + "/plots/" + png)) << png;
  }
  const std::string measured = Read(dir_ + "/runs/fifo-1/measured.csv");
  ASSERT_FALSE(measured.empty());

  CommandResult again = Run();
  ASSERT_EQ(again.exit_code, 0) << again.out;
  EXPECT_NE(again.out.find("fifo-1: kept"), std::string::npos) << again.out;
  EXPECT_EQ(again.out.find("calibrate-"), std::string::npos) << "the stored calibration is reused\n" << again.out;
  EXPECT_EQ(Read(dir_ + "/runs/fifo-1/measured.csv"), measured) << "a finished run was redone";
  EXPECT_EQ(Read(dir_ + "/jobs.csv"), csv) << "same runs, same calibration: the same rows";

  // Without its DONE marker a run counts as half done and is redone from scratch.
  ASSERT_TRUE(RemoveAll(dir_ + "/runs/fifo-1/DONE").ok());
  CommandResult redo = Run();
  ASSERT_EQ(redo.exit_code, 0) << redo.out;
  EXPECT_NE(redo.out.find("fifo-1: done"), std::string::npos) << redo.out;
  EXPECT_TRUE(PathExists(dir_ + "/runs/fifo-1/DONE"));

  ASSERT_TRUE(RemoveAll(dir_ + "/summary.md").ok());
  ASSERT_TRUE(RemoveAll(dir_ + "/plots").ok());
  CommandResult report = Sh(MrBin() + " experiment report " + dir_ + " 2>&1");
  ASSERT_EQ(report.exit_code, 0) << report.out;
  EXPECT_NE(Read(dir_ + "/summary.md").find("| fifo | burn | 1 | 3 |"), std::string::npos);
  EXPECT_TRUE(experiment::IsPngFile(dir_ + "/plots/cdf.png"));
}

// Issue 14's shapes end to end: workers with unified slots only, tasks that hold their slot
// without CPU. The calibration and the run use both; the results say which mode ran and
// give the SRPT bound on the unified slots. (And issue 24's worker-group labels.)
TEST_F(ExperimentCliTest, UnifiedSlotsInSleepModeRunAndSayWhichModeRan) {
  ASSERT_TRUE(WriteStringToFile(file_,
                                "name: tiny\n"
                                "cluster:\n  workers:\n    - {count: 2, unified_slots: 2, shuffle_bandwidth: 20MB/s,"
                                " labels: {class: sleepy}}\n"
                                "  work: sleep\n  slow_start: 1\n"
                                "workload:\n  csv: tiny.csv\n"
                                "policies:\n  - fifo\n")
                  .ok());
  CommandResult first = Run();
  ASSERT_EQ(first.exit_code, 0) << first.out;
  const std::string csv = Read(dir_ + "/jobs.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), ','), 4 * 23) << csv;  // 24 columns since issue 31's bands
  EXPECT_EQ(csv.find(",burn"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",sleep,"), std::string::npos) << csv;
  Result<std::vector<experiment::JobResult>> rows = experiment::ParseJobsCsv(csv);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  for (const experiment::JobResult& r : *rows) {
    EXPECT_TRUE(r.replayed.has_value()) << "every job is replayed\n" << csv;
    EXPECT_TRUE(r.replay_band.has_value() && r.predicted_band.has_value()) << "every job has its bands\n" << csv;
  }
  const std::string summary = Read(dir_ + "/summary.md");
  EXPECT_NE(summary.find("| policy | prediction per job (ARIA) | prediction band | replay per job (SimMR) | "
                         "replay band |"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("/3 inside, mean "), std::string::npos) << summary;
  EXPECT_NE(summary.find("| fifo | sleep | 1 | 3 |"), std::string::npos) << summary;
  EXPECT_NE(summary.find("| policy | total flow measured | SRPT bound | measured / bound |"), std::string::npos)
      << summary;
  // The maps ran on unified slots.
  const std::string trace = Read(dir_ + "/runs/fifo-1/traces/job-000001.jsonl");
  EXPECT_NE(trace.find("\"slot\":\"unified\""), std::string::npos) << trace;
  // The group's labels reached both live workers (mr worker --label): two shuffle servers
  // registered with them (a worker that registers again counts once).
  const std::string log = Read(dir_ + "/runs/fifo-1/logs/master.log");
  std::set<std::string> labelled;
  std::regex registered(R"(registered: (\S+) .* labels=class=sleepy)");
  for (auto it = std::sregex_iterator(log.begin(), log.end(), registered); it != std::sregex_iterator(); ++it) {
    labelled.insert((*it)[1]);
  }
  EXPECT_EQ(labelled.size(), 2u) << log;
}

TEST_F(ExperimentCliTest, ReportWithoutResultsIsAUsageError) {
  CommandResult r = Sh(MrBin() + " experiment report " + tmp_.path() + "/nothing 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("jobs.csv"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace mr::testing
