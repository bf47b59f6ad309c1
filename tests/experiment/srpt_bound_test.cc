// The summary's SRPT bound (experiment/srpt_bound.h): measured work from traces, the
// conversion to the slotted model's units, and one run read from its files.
#include "experiment/srpt_bound.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/file_util.h"
#include "experiment/live_run.h"
#include "trace/reader.h"

namespace mr::experiment {
namespace {

using nlohmann::json;

json End(const std::string& task, double start, double t, const std::string& status = "ok") {
  return {{"event", "attempt_end"}, {"task", task}, {"start", start}, {"t", t}, {"status", status}};
}

TEST(SrptBoundTest, MeasuredWorkIsTheSuccessfulAttemptsSlotSeconds) {
  MeasuredWork w;
  const json events = {End("m-00000", 10, 10.5), End("m-00001", 10, 10.75), End("m-00002", 10, 13, "failed"),
                       {{"event", "attempt_start"}, {"task", "r-00000"}, {"t", 11}},
                       End("r-00000", 11, 13), End("r-00001", 11, 12.5, "killed")};
  auto read = trace::ParseTraceArray(events.dump());
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  AddTraceWork(*read, &w);
  EXPECT_DOUBLE_EQ(w.map_seconds, 1.25);
  EXPECT_DOUBLE_EQ(w.reduce_seconds, 2);
}

TEST(SrptBoundTest, ByHand) {
  // A: 1 s of maps and 1 s of reduces; B: 1 s and 2 s; both at time 0.
  std::vector<MeasuredWork> jobs = {{0, 1, 1}, {0, 1, 2}};
  // One machine, 1 s slots: A's 2 units in slots 1-2 (flow 2), then B's 3 in 3-5 (flow 5).
  auto one = SrptBoundSeconds(jobs, 1, 1.0);
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  EXPECT_DOUBLE_EQ(*one, 7);
  // Half-second slots: 4 and 6 units, flows 4 and 10 slots: 14 x 0.5 s.
  EXPECT_DOUBLE_EQ(*SrptBoundSeconds(jobs, 1, 0.5), 7);
  // Two machines: A's 2 units both in slot 1 (flow 1); B's 3 in slots 2-3 (flow 3).
  EXPECT_DOUBLE_EQ(*SrptBoundSeconds(jobs, 2, 1.0), 4);
  // B arriving at 2.5 s is in slot 3: A ends in slot 1 (flow 1), B runs slots 3-4 (flow 2).
  jobs[1].arrival = 2.5;
  EXPECT_DOUBLE_EQ(*SrptBoundSeconds(jobs, 2, 1.0), 3);
  EXPECT_FALSE(SrptBoundSeconds(jobs, 0, 1.0).ok());
  EXPECT_FALSE(SrptBoundSeconds({}, 1, 1.0).ok());
}

TEST(SrptBoundTest, OneRunFromItsFiles) {
  TempDir dir;
  const std::string run = dir.path();
  std::vector<MeasuredJob> measured(2);
  measured[0].job = 0;
  measured[0].id = 7;
  measured[1].job = 1;
  measured[1].id = 8;
  ASSERT_TRUE(WriteStringToFile(JoinPath(run, "measured.csv"), MeasuredCsv(measured)).ok());
  ASSERT_TRUE(MakeDirs(JoinPath(run, "traces")).ok());
  auto trace = [](std::vector<json> events) {
    std::string text;
    for (const json& e : events) text += e.dump() + "\n";
    return text;
  };
  ASSERT_TRUE(WriteStringToFile(JoinPath(JoinPath(run, "traces"), TraceFileName(7)),
                                trace({End("m-00000", 0, 1), End("r-00000", 1, 2)}))
                  .ok());
  ASSERT_TRUE(WriteStringToFile(JoinPath(JoinPath(run, "traces"), TraceFileName(8)),
                                trace({End("m-00000", 0, 1), End("r-00000", 1, 3)}))
                  .ok());
  std::vector<JobResult> rows(2);
  rows[0].job = 0;
  rows[1].job = 1;
  rows[1].arrival = 0;
  auto b = RunSrptBound(run, rows, 1, 1.0);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_DOUBLE_EQ(*b, 7);  // the by-hand instance above
  EXPECT_EQ(RunSrptBound(JoinPath(run, "nope"), rows, 1, 1.0).status().code(), StatusCode::kNotFound);
}

TEST(SrptBoundTest, TheSummaryShowsTotalFlowAgainstTheBound) {
  std::vector<JobResult> rows = {{"asrpt", 1, 0, 0, 1, 1, 0, 1, 5, 5, 5}, {"asrpt", 1, 1, 0, 1, 1, 0, 1, 9, 9, 9}};
  std::vector<PolicySummary> s = Summarize(rows);
  EXPECT_EQ(SummaryMarkdown(s, "t").find("SRPT"), std::string::npos) << "no bound, no table";
  s[0].srpt_bound = 7;
  EXPECT_NE(SummaryMarkdown(s, "t").find("| asrpt | 14.0 | 7.0 | 2.00 |"), std::string::npos)
      << SummaryMarkdown(s, "t");
}

}  // namespace
}  // namespace mr::experiment
