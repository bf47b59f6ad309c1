// The report's settings (report.json) and what the experiment file's `report:` changes in the
// summary and the plots.
#include "experiment/report.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "experiment/job_results.h"

namespace mr::experiment {
namespace {

TEST(ReportTest, SettingsRoundTripThroughReportJson) {
  ReportSettings s;
  s.title = "Experiment x";
  s.bound = {4, 0.5};
  s.spec.tail_percentile = 95;
  s.spec.scatter = false;
  s.spec.gantt_run = "fifo-2";
  s.spec.gantt_job = "fastest";
  s.spec.band_runs = 12;
  s.spec.band_jitter = 0.005;
  Result<ReportSettings> back = ParseReportSettings(ReportSettingsJson(s));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->title, "Experiment x");
  EXPECT_EQ(back->bound.machines, 4);
  EXPECT_EQ(back->bound.round, 0.5);
  EXPECT_EQ(back->spec.tail_percentile, 95);
  EXPECT_FALSE(back->spec.scatter);
  EXPECT_TRUE(back->spec.cdf && back->spec.gantt);
  EXPECT_EQ(back->spec.gantt_run, "fifo-2");
  EXPECT_EQ(back->spec.gantt_job, "fastest");
  EXPECT_EQ(back->spec.band_runs, 12);
  EXPECT_DOUBLE_EQ(back->spec.band_jitter, 0.005);
  EXPECT_DOUBLE_EQ(back->spec.band_map_time_cv, 0);
  EXPECT_EQ(ReportSettingsJson(s).find("band_map_time_cv"), std::string::npos) << "written only when set";
  s.spec.band_map_time_cv = 0.069;
  Result<ReportSettings> cv = ParseReportSettings(ReportSettingsJson(s));
  ASSERT_TRUE(cv.ok()) << cv.status().ToString();
  EXPECT_DOUBLE_EQ(cv->spec.band_map_time_cv, 0.069);
  s.spec.band_map_time_cv = 0;
  // A report.json from before the band has neither: the defaults.
  std::string before_band = ReportSettingsJson(s);
  before_band.replace(before_band.find("\"band_runs\""), std::string("\"band_runs\"").size(), "\"x_runs\"");
  Result<ReportSettings> old = ParseReportSettings(before_band);
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  EXPECT_EQ(old->spec.band_runs, 8);
  EXPECT_FALSE(ParseReportSettings(R"({"title": "t"})").ok());
  std::string bad_tail = ReportSettingsJson(s);
  bad_tail.replace(bad_tail.find("95"), 2, "100");
  EXPECT_FALSE(ParseReportSettings(bad_tail).ok());
}

// Without report.json (results written before it existed) the title comes from the
// directory and everything else is the default.
TEST(ReportTest, DefaultsWithoutReportJson) {
  Result<ReportSettings> s = LoadReportSettings("/nonexistent/results/swim-hour/");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->title, "Experiment swim-hour");
  EXPECT_EQ(s->bound.machines, 0);
  EXPECT_EQ(s->spec.tail_percentile, 90);
}

// The tail percentile names the columns and moves the figures: errors 10%, 25%, 0% have a
// p95 of 0.10 + 0.9 * (0.25 - 0.10) = 0.235.
TEST(ReportTest, TailPercentileNamesTheColumns) {
  std::vector<JobResult> rows = {
      {"a", 1, 0, 0, 1, 1, 0, 1, 2, 2.2, 2.5},
      {"a", 1, 1, 1, 1, 1, 0, 1, 4, 3, 4.5},
      {"a", 1, 2, 3, 1, 1, 0, 1, 10, 10, 10},
  };
  std::vector<PolicySummary> s = Summarize(rows, 0.95);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_NEAR(s[0].error_tail, 0.235, 1e-12);
  const std::string md = SummaryMarkdown(s, "t");
  EXPECT_NE(md.find("| median | p95 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| error median | error p95 |"), std::string::npos) << md;
  EXPECT_EQ(md.find("p90"), std::string::npos) << md;
}

// plots: [cdf] draws the CDF only and removes a scatter plot left by an earlier report.
TEST(ReportTest, OnlyThePlotsAskedFor) {
  TempDir tmp("report-test");  // removed with the test, even when an assertion ends it early
  const std::string dir = JoinPath(tmp.path(), "report-test-plots");
  ASSERT_TRUE(MakeDirs(JoinPath(dir, "plots")).ok());
  std::vector<JobResult> rows = {{"a", 1, 0, 0, 1, 1, 0, 1, 2, 2.2, 2.5}, {"a", 1, 1, 1, 1, 1, 0, 1, 4, 3, 4.5}};
  ASSERT_TRUE(WriteStringToFile(JoinPath(dir, "jobs.csv"), JobsCsv(rows)).ok());
  ASSERT_TRUE(WriteStringToFile(JoinPath(dir, "plots/scatter.png"), "stale").ok());
  ReportSettings s;
  s.title = "Experiment p";
  s.spec.scatter = s.spec.gantt = false;
  Status st = BuildReport(dir, s);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_TRUE(IsPngFile(JoinPath(dir, "plots/cdf.png")));
  EXPECT_FALSE(PathExists(JoinPath(dir, "plots/scatter.png")));
  EXPECT_FALSE(PathExists(JoinPath(dir, "plots/gantt.png")));
  // A Gantt chart of a run that does not exist is an error naming it.
  s.spec.gantt = true;
  s.spec.gantt_run = "fifo-1";
  st = BuildReport(dir, s);
  EXPECT_EQ(st.code(), StatusCode::kNotFound);
  EXPECT_NE(st.message().find("fifo-1"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace mr::experiment
