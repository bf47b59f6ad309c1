#include "experiment/job_results.h"

#include <gtest/gtest.h>

namespace mr::experiment {
namespace {

TEST(JobResultsTest, SummaryByHand) {
  // Policy a, one run: measured 2, 4, 10; predicted 2.2, 3, 10 -> errors 10%, 25%, 0%.
  // Completions: measured arrival + since_planned = 2.5, 5.5, 13; predicted 2.2, 4, 13.
  std::vector<JobResult> rows = {
      {"a", 1, 0, 0, 1, 1, 0, 1, 2, 2.2, 2.5},
      {"a", 1, 1, 1, 1, 1, 0, 1, 4, 3, 4.5},
      {"a", 1, 2, 3, 1, 1, 0, 1, 10, 10, 10},
      {"b", 1, 0, 0, 1, 1, 0, 1, 1, 1.5, 1},
  };
  std::vector<PolicySummary> s = Summarize(rows);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].policy, "a");
  EXPECT_EQ(s[0].jobs, 3);
  EXPECT_EQ(s[0].runs, 1);
  EXPECT_DOUBLE_EQ(s[0].measured_mean, 16.0 / 3);
  EXPECT_DOUBLE_EQ(s[0].measured_median, 4);
  EXPECT_DOUBLE_EQ(s[0].measured_tail, 8.8);  // 4 + 0.8 * (10 - 4)
  EXPECT_DOUBLE_EQ(s[0].predicted_mean, 15.2 / 3);
  EXPECT_NEAR(s[0].error_median, 0.10, 1e-12);
  EXPECT_NEAR(s[0].error_tail, 0.22, 1e-12);  // 0.10 + 0.8 * (0.25 - 0.10)
  EXPECT_DOUBLE_EQ(s[0].measured_makespan, 13);
  EXPECT_DOUBLE_EQ(s[0].predicted_makespan, 13);
  EXPECT_DOUBLE_EQ(s[0].makespan_error, 0);
  EXPECT_NEAR(s[1].error_median, 0.5, 1e-12);
  // Total flow time: 2 + 4 + 10 measured, 2.2 + 3 + 10 predicted.
  EXPECT_DOUBLE_EQ(s[0].measured_total_flow, 16);
  EXPECT_DOUBLE_EQ(s[0].predicted_total_flow, 15.2);
  EXPECT_EQ(s[0].work, "burn");
  EXPECT_EQ(s[0].replayed_jobs, 0);  // nothing replayed: the replay table shows dashes
  EXPECT_NE(SummaryMarkdown(s, "t").find("| a | 0 | 5.33 | - | - | - | - |"), std::string::npos);
  EXPECT_NE(SummaryMarkdown(s, "t").find(
                "| a | burn | 1 | 3 | 5.33 | 4.00 | 8.80 | 5.07 | 10.0% | 22.0% | 16.0 | 15.2 | 5.0% | 13.00 |"),
            std::string::npos)
      << SummaryMarkdown(s, "t");
}

TEST(JobResultsTest, TotalFlowIsTheMeanOverRunsOfEachRunsSum) {
  std::vector<JobResult> rows = {
      {"p", 1, 0, 0, 1, 1, 0, 1, 2, 3, 2, "sleep", std::nullopt},
      {"p", 1, 1, 1, 1, 1, 0, 1, 4, 3, 4, "sleep", std::nullopt},
      {"p", 2, 0, 0, 1, 1, 0, 1, 6, 3, 6, "sleep", std::nullopt},
      {"p", 2, 1, 1, 1, 1, 0, 1, 8, 3, 8, "sleep", std::nullopt},
  };
  std::vector<PolicySummary> s = Summarize(rows);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].runs, 2);
  EXPECT_DOUBLE_EQ(s[0].measured_total_flow, (6 + 14) / 2.0);
  EXPECT_DOUBLE_EQ(s[0].predicted_total_flow, 6);
  EXPECT_EQ(s[0].work, "sleep");
  EXPECT_NE(SummaryMarkdown(s, "t").find("| p | sleep | 2 | 4 |"), std::string::npos) << SummaryMarkdown(s, "t");
  // Each run's mean, run 1 (2 + 4) / 2 = 3 and run 2 (6 + 8) / 2 = 7, and their spread,
  // (7 - 3) / 5 = 80%: one repetition alone would have hidden it.
  ASSERT_EQ(s[0].run_means.size(), 2u);
  EXPECT_DOUBLE_EQ(s[0].run_means[0], 3);
  EXPECT_DOUBLE_EQ(s[0].run_means[1], 7);
  EXPECT_DOUBLE_EQ(s[0].run_spread, 0.8);
  // The farthest run from the runs' mean 5: |3 / 5 - 1| = 40%, outside the ±5% asked.
  EXPECT_NE(SummaryMarkdown(s, "t").find("| p | 2 | 3.00 / 7.00 | 80.0% | ±40.0% (**outside ±5%**) |"),
            std::string::npos)
      << SummaryMarkdown(s, "t");
}

TEST(JobResultsTest, OneRunHasNoRepetitionTable) {
  std::vector<JobResult> rows = {{"p", 1, 0, 0, 1, 1, 0, 1, 2, 3, 2, "sleep", std::nullopt}};
  std::vector<PolicySummary> s = Summarize(rows);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].run_spread, 0);
  EXPECT_EQ(SummaryMarkdown(s, "t").find("Repetitions:"), std::string::npos);
}

TEST(JobResultsTest, ReplaySummarizedApartFromThePrediction) {
  // Measured 2, 4 and 10 replayed as 2.1, 4.4 and 10: |errors| 5%, 10%, 0%. Submission lag
  // (since_planned - measured) 0.5 for every job, so the replayed completions are
  // 0 + 0.5 + 2.1 = 2.6, 1 + 0.5 + 4.4 = 5.9 and 3 + 0.5 + 10 = 13.5 against measured
  // 2.5, 5.5 and 13.5: makespan 13.5 both, error 0. Policy b's one job has no replay.
  std::vector<JobResult> rows = {
      {"a", 1, 0, 0, 1, 1, 0, 1, 2, 2.2, 2.5, "burn", 2.1},
      {"a", 1, 1, 1, 1, 1, 0, 1, 4, 3, 4.5, "burn", 4.4},
      {"a", 1, 2, 3, 1, 1, 0, 1, 10, 10, 10.5, "burn", 10.0},
      {"b", 1, 0, 0, 1, 1, 0, 1, 1, 1.5, 1, "burn", std::nullopt},
  };
  std::vector<PolicySummary> s = Summarize(rows);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].replayed_jobs, 3);
  EXPECT_DOUBLE_EQ(s[0].replayed_mean, 16.5 / 3);
  EXPECT_NEAR(s[0].replay_error_median, 0.05, 1e-12);
  EXPECT_NEAR(s[0].replay_error_tail, 0.09, 1e-12);  // 0.05 + 0.8 * (0.10 - 0.05)
  EXPECT_DOUBLE_EQ(s[0].replayed_makespan, 13.5);
  EXPECT_NEAR(s[0].replay_makespan_error, 0, 1e-12);
  EXPECT_NEAR(s[0].error_median, 0.10, 1e-12);  // the prediction's own figures are untouched
  EXPECT_EQ(s[1].replayed_jobs, 0);
  EXPECT_NE(SummaryMarkdown(s, "t").find("| a | 3 | 5.33 | 5.50 | 5.0% | 9.0% | 0.0% |"), std::string::npos)
      << SummaryMarkdown(s, "t");
}

TEST(JobResultsTest, CsvRoundTripAndErrorsNameTheLine) {
  std::vector<JobResult> rows = {
      {"fifo", 2, 7, 1.5, 3, 0.25, 3e6, 2, 4.0, 5.0, 4.5, "sleep", 4.4, 2, 30, "10:1,20:3"},
      {"fifo", 2, 8, 1.5, 3, 0.25, 3e6, 2, 4.0, 5.0, 4.5, "burn", std::nullopt}};
  std::string csv = JobsCsv(rows);
  EXPECT_NE(csv.find("fifo,2,7,1.5,3,0.25,3e+06,2,4,5,0.25,4.5,sleep,4.4,0.1,2,30,10:1;20:3,,,,,,\n"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find("fifo,2,8,1.5,3,0.25,3e+06,2,4,5,0.25,4.5,burn,,,1,0,,,,,,,\n"), std::string::npos) << csv;
  auto back = ParseJobsCsv(csv);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0].policy, "fifo");
  EXPECT_EQ((*back)[0].job, 7);
  EXPECT_DOUBLE_EQ((*back)[0].predicted, 5.0);
  EXPECT_EQ((*back)[0].work, "sleep");
  ASSERT_TRUE((*back)[0].replayed.has_value());
  EXPECT_DOUBLE_EQ(*(*back)[0].replayed, 4.4);
  EXPECT_FALSE((*back)[1].replayed.has_value());
  EXPECT_EQ((*back)[0].weight, 2);
  EXPECT_EQ((*back)[0].deadline, 30);
  EXPECT_EQ((*back)[0].sla, "10:1,20:3");
  EXPECT_EQ((*back)[1].sla, "");
  auto bad = ParseJobsCsv(csv + "fifo,1,1,x,1,1,1,1,1,1,0,1,burn,,,1,0,,,,,,,\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("line 4: arrival 'x'"), std::string::npos) << bad.status().message();
  bad = ParseJobsCsv(csv + "fifo,1,1,1,1,1,1,1,1,1,0,1,nap,,,1,0,,,,,,,\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("line 4: work 'nap' is not burn or sleep"), std::string::npos)
      << bad.status().message();
}

TEST(JobResultsTest, FilesWrittenBeforeTheWorkColumnAreBurn) {
  auto old = ParseJobsCsv(
      "policy,rep,job,arrival,maps,map_seconds,shuffle_bytes,reducers,measured,predicted,error,sojourn\n"
      "fifo,1,0,0,2,1,0,1,3,3,0,3\n");
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  ASSERT_EQ(old->size(), 1u);
  EXPECT_EQ((*old)[0].work, "burn");
  EXPECT_DOUBLE_EQ((*old)[0].measured, 3);
  EXPECT_FALSE((*old)[0].replayed.has_value());
  auto replay = ParseJobsCsv(
      "policy,rep,job,arrival,maps,map_seconds,shuffle_bytes,reducers,measured,predicted,error,since_planned,work,"
      "replayed,replay_error\nfifo,1,0,0,2,1,0,1,3,3,0,3,burn,,\n");
  ASSERT_TRUE(replay.ok()) << replay.status().ToString();
  EXPECT_EQ((*replay)[0].weight, 1) << "before the weight column";
  EXPECT_EQ((*replay)[0].deadline, 0);
}

TEST(JobResultsTest, BandsRoundTripAndFilesBeforeThemHaveNone) {
  JobResult r{"asrpt", 1, 0, 0, 2, 1, 0, 1, 10, 12, 10, "burn", 11.0};
  r.replay_band = Band{9.5, 13.25, 11.5};
  r.predicted_band = Band{12, 12, 12};
  const std::string csv = JobsCsv({r});
  EXPECT_NE(csv.find(",1,0,,9.5,13.25,11.5,12,12,12\n"), std::string::npos) << csv;
  auto back = ParseJobsCsv(csv);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_TRUE((*back)[0].replay_band.has_value());
  EXPECT_DOUBLE_EQ((*back)[0].replay_band->lo, 9.5);
  EXPECT_DOUBLE_EQ((*back)[0].replay_band->hi, 13.25);
  EXPECT_DOUBLE_EQ((*back)[0].replay_band->mean, 11.5);
  ASSERT_TRUE((*back)[0].predicted_band.has_value());
  EXPECT_DOUBLE_EQ((*back)[0].predicted_band->mean, 12);
  // A band whose mean lies outside it is not one.
  auto bad = ParseJobsCsv(csv.substr(0, csv.find('\n') + 1) + "asrpt,1,0,0,2,1,0,1,10,12,0.2,10,burn,,,1,0,,9,10,11,,,\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("line 2: a band whose mean is outside"), std::string::npos)
      << bad.status().message();
  auto weight = ParseJobsCsv(
      "policy,rep,job,arrival,maps,map_seconds,shuffle_bytes,reducers,measured,predicted,error,since_planned,work,"
      "replayed,replay_error,weight,deadline,sla\nfifo,1,0,0,2,1,0,1,3,3,0,3,burn,3,0,2,0,\n");
  ASSERT_TRUE(weight.ok()) << weight.status().ToString();
  EXPECT_EQ((*weight)[0].weight, 2);
  EXPECT_FALSE((*weight)[0].replay_band.has_value()) << "before the band columns";
  EXPECT_FALSE((*weight)[0].predicted_band.has_value());
}

}  // namespace
}  // namespace mr::experiment
