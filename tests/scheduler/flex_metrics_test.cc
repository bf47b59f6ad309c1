// Every metric of the menu on cases computed by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "scheduler/flex/metrics.h"

namespace mr::flex {
namespace {

// Arrival 1, weight 2, deadline 5, time alone 2, SLA: 1 after 3, 4 after 6.
JobTerms Terms() {
  JobTerms t;
  t.arrival = 1;
  t.weight = 2;
  t.deadline = 5;
  t.alone = 2;
  t.sla = {{3, 1}, {6, 4}};
  return t;
}

double P(Metric m, double completion) { return Penalty(m, Terms(), completion, /*origin=*/0); }

TEST(FlexMetricsTest, PenaltiesOfALateJob) {
  // Completion 7: response 6, weighted 12, stretch 6/2 = 3, makespan 7 from origin 0,
  // tardy (7 > 5), tardiness 2 * (7 - 5) = 4, lateness 4, SLA misses both steps: 4.
  EXPECT_DOUBLE_EQ(P(Metric::kResponseTime, 7), 6);
  EXPECT_DOUBLE_EQ(P(Metric::kWeightedResponseTime, 7), 12);
  EXPECT_DOUBLE_EQ(P(Metric::kStretch, 7), 3);
  EXPECT_DOUBLE_EQ(P(Metric::kMaxStretch, 7), 3);
  EXPECT_DOUBLE_EQ(P(Metric::kMakespan, 7), 7);
  EXPECT_DOUBLE_EQ(P(Metric::kTardyJobs, 7), 1);
  EXPECT_DOUBLE_EQ(P(Metric::kWeightedTardyJobs, 7), 2);
  EXPECT_DOUBLE_EQ(P(Metric::kTardiness, 7), 4);
  EXPECT_DOUBLE_EQ(P(Metric::kMaxTardiness, 7), 4);
  EXPECT_DOUBLE_EQ(P(Metric::kLateness, 7), 4);
  EXPECT_DOUBLE_EQ(P(Metric::kMaxLateness, 7), 4);
  EXPECT_DOUBLE_EQ(P(Metric::kSla, 7), 4);
}

TEST(FlexMetricsTest, PenaltiesOfAnEarlyJob) {
  // Completion 4: on time, lateness 2 * (4 - 5) = -2, SLA misses only the first step (4 > 3).
  EXPECT_DOUBLE_EQ(P(Metric::kTardyJobs, 4), 0);
  EXPECT_DOUBLE_EQ(P(Metric::kWeightedTardyJobs, 4), 0);
  EXPECT_DOUBLE_EQ(P(Metric::kTardiness, 4), 0);
  EXPECT_DOUBLE_EQ(P(Metric::kLateness, 4), -2);
  EXPECT_DOUBLE_EQ(P(Metric::kSla, 4), 1);
  // Exactly at a (pseudo-)deadline is on time.
  EXPECT_DOUBLE_EQ(P(Metric::kTardyJobs, 5), 0);
  EXPECT_DOUBLE_EQ(P(Metric::kSla, 3), 0);
  EXPECT_DOUBLE_EQ(P(Metric::kSla, 6), 1);
}

TEST(FlexMetricsTest, NeverFinishing) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(P(Metric::kResponseTime, inf), inf);
  EXPECT_DOUBLE_EQ(P(Metric::kWeightedTardyJobs, inf), 2);
  EXPECT_DOUBLE_EQ(P(Metric::kSla, inf), 4);
}

TEST(FlexMetricsTest, EvaluateSumsOrTakesTheMaximum) {
  // Two jobs arriving at 0 and 2, deadlines 4 and 3, weights 1 and 3; completions 5 and 4.
  std::vector<JobTerms> t(2);
  t[0].deadline = 4;
  t[1].arrival = 2;
  t[1].deadline = 3;
  t[1].weight = 3;
  t[0].alone = 1;
  t[1].alone = 0.5;
  std::vector<double> c = {5, 4};
  EXPECT_DOUBLE_EQ(*Evaluate(Metric::kResponseTime, t, c), 5 + 2);
  EXPECT_DOUBLE_EQ(*Evaluate(Metric::kWeightedResponseTime, t, c), 5 + 6);
  EXPECT_DOUBLE_EQ(*Evaluate(Metric::kStretch, t, c), 5 + 4);
  EXPECT_DOUBLE_EQ(*Evaluate(Metric::kMaxStretch, t, c), 5);
  EXPECT_DOUBLE_EQ(*Evaluate(Metric::kMakespan, t, c), 5);  // origin: earliest arrival 0
  EXPECT_DOUBLE_EQ(*Evaluate(Metric::kTardyJobs, t, c), 2);
  EXPECT_DOUBLE_EQ(*Evaluate(Metric::kWeightedTardyJobs, t, c), 1 + 3);
  EXPECT_DOUBLE_EQ(*Evaluate(Metric::kTardiness, t, c), 1 + 3);
  EXPECT_DOUBLE_EQ(*Evaluate(Metric::kMaxTardiness, t, c), 3);
  EXPECT_DOUBLE_EQ(*Evaluate(Metric::kLateness, t, c), 4);
  EXPECT_DOUBLE_EQ(*Evaluate(Metric::kMaxLateness, t, c), 3);
  // Makespan counts from the earliest arrival: shifted arrivals shift the value.
  t[0].arrival = 1;
  EXPECT_DOUBLE_EQ(*Evaluate(Metric::kMakespan, t, c), 4);
  // No SLA steps, so sla cannot be evaluated; neither can a size mismatch.
  EXPECT_FALSE(Evaluate(Metric::kSla, t, c).ok());
  EXPECT_FALSE(Evaluate(Metric::kResponseTime, t, std::vector<double>{1}).ok());
}

TEST(FlexMetricsTest, MixedObjectiveCountsEachMinimaxGroupOnce) {
  // Jobs: two response-time (completions 3, 5), two makespan (4, 6), one max-lateness with
  // deadline 2 (completion 3). Sum 3 + 5, plus max(4, 6), plus max(3 - 2) = 15.
  std::vector<Metric> m = {Metric::kResponseTime, Metric::kResponseTime, Metric::kMakespan,
                           Metric::kMakespan, Metric::kMaxLateness};
  std::vector<JobTerms> t(5);
  t[4].deadline = 2;
  std::vector<double> c = {3, 5, 4, 6, 3};
  EXPECT_DOUBLE_EQ(CombinedObjective(m, t, c, 0), 8 + 6 + 1);
}

TEST(FlexMetricsTest, TableAndParsing) {
  ASSERT_EQ(MetricTable().size(), 12u);
  for (const MetricInfo& info : MetricTable()) {
    auto parsed = ParseMetric(info.name);
    ASSERT_TRUE(parsed.ok()) << info.name;
    EXPECT_EQ(*parsed, info.metric);
    EXPECT_EQ(MetricName(info.metric), info.name);
    EXPECT_NE(info.orders[0], OrderKind::kNone) << info.name << " has no specific order";
  }
  auto bad = ParseMetric("fastest");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("response-time, weighted-response-time"),
            std::string::npos);
  EXPECT_FALSE(InfoOf(Metric::kTardyJobs).convex_summand);
  EXPECT_FALSE(InfoOf(Metric::kSla).convex_summand);
  EXPECT_TRUE(InfoOf(Metric::kTardiness).convex_summand);  // see flex_rap_test
  EXPECT_EQ(InfoOf(Metric::kMaxLateness).aggregation, Aggregation::kMinimax);
}

TEST(FlexMetricsTest, CheckTermsNamesWhatIsMissing) {
  JobTerms t;
  Status st = CheckTerms(Metric::kTardiness, t);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "metric tardiness needs a deadline");
  EXPECT_FALSE(CheckTerms(Metric::kStretch, t).ok());  // no time alone
  EXPECT_FALSE(CheckTerms(Metric::kSla, t).ok());
  EXPECT_TRUE(CheckTerms(Metric::kResponseTime, t).ok());
  t.weight = 0;
  EXPECT_FALSE(CheckTerms(Metric::kResponseTime, t).ok());
  t.weight = 1;
  t.sla = {{5, 1}, {4, 2}};
  st = CheckTerms(Metric::kSla, t);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "SLA pseudo-deadlines must increase: 5 then 4");
}

TEST(FlexMetricsTest, ParseSla) {
  auto ok = ParseSla("30:1,60:2.5,90:10");
  ASSERT_TRUE(ok.ok());
  ASSERT_EQ(ok->size(), 3u);
  EXPECT_DOUBLE_EQ((*ok)[1].deadline, 60);
  EXPECT_DOUBLE_EQ((*ok)[1].penalty, 2.5);
  EXPECT_EQ(ParseSla("30:2,60:1").status().message(), "SLA penalties must increase: 2 then 1");
  EXPECT_FALSE(ParseSla("30").ok());
  EXPECT_FALSE(ParseSla("x:1").ok());
  EXPECT_FALSE(ParseSla("").ok());
  EXPECT_FALSE(ParseSla("30:0").ok());
}

}  // namespace
}  // namespace mr::flex
