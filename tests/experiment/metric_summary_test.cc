// The metric menu over an experiment's results (experiment/metric_summary.h), on hand-computed
// cases: completions from planned arrival + response, deadlines after arrival, runs averaged.
#include <gtest/gtest.h>

#include "experiment/metric_summary.h"

namespace mr::experiment {
namespace {

JobResult Row(const char* policy, int rep, int job, double arrival, double measured, double predicted,
              std::optional<double> replayed, double weight = 1, double deadline = 0, std::string sla = "") {
  JobResult r;
  r.policy = policy;
  r.rep = rep;
  r.job = job;
  r.arrival = arrival;
  r.measured = measured;
  r.predicted = predicted;
  r.replayed = replayed;
  r.weight = weight;
  r.deadline = deadline;
  r.sla = std::move(sla);
  return r;
}

// Run 1: job 0 arrives at 0, done at 10 (deadline 8: 2 late); job 1 arrives at 2, done at 6
// (weight 3, deadline 2 + 10 = 12: 6 early). Run 2: job 0 done at 6 (2 early), job 1 at 14 (2 late).
const std::vector<JobResult> kRows = {
    Row("flex", 1, 0, 0, 10, 9, 11, 1, 8, "5:1,9:4"), Row("flex", 1, 1, 2, 4, 5, std::nullopt, 3, 10),
    Row("flex", 2, 0, 0, 6, 6, 6, 1, 8, "5:1,9:4"),   Row("flex", 2, 1, 2, 12, 10, 12, 3, 10),
    Row("fair", 1, 0, 0, 1, 1, 1),
};

TEST(MetricSummaryTest, EveryMetricFromTheCompletionsByHand) {
  auto m = [](flex::Metric metric, CompletionSource s = CompletionSource::kMeasured) {
    return MeanMetric(kRows, "flex", metric, s);
  };
  EXPECT_DOUBLE_EQ(*m(flex::Metric::kResponseTime), ((10 + 4) + (6 + 12)) / 2.0);
  EXPECT_DOUBLE_EQ(*m(flex::Metric::kWeightedResponseTime), ((10 + 3 * 4) + (6 + 3 * 12)) / 2.0);
  EXPECT_DOUBLE_EQ(*m(flex::Metric::kMakespan), (10 + 14) / 2.0);
  EXPECT_DOUBLE_EQ(*m(flex::Metric::kTardyJobs), (1 + 1) / 2.0);
  EXPECT_DOUBLE_EQ(*m(flex::Metric::kWeightedTardyJobs), (1 + 3) / 2.0);
  EXPECT_DOUBLE_EQ(*m(flex::Metric::kTardiness), (2 + 3 * 2) / 2.0);
  EXPECT_DOUBLE_EQ(*m(flex::Metric::kMaxTardiness), (2 + 6) / 2.0);
  EXPECT_DOUBLE_EQ(*m(flex::Metric::kLateness), ((2 - 3 * 6) + (-2 + 3 * 2)) / 2.0);
  EXPECT_DOUBLE_EQ(*m(flex::Metric::kMaxLateness), (2 + 6) / 2.0);
  // Only job 0 has an SLA: done at 10 misses both steps (penalty 4); at 6 only the first (1).
  EXPECT_DOUBLE_EQ(*m(flex::Metric::kSla), (4 + 1) / 2.0);
  EXPECT_FALSE(m(flex::Metric::kStretch).has_value()) << "no time alone in the results";
  // Predicted: run 1 completes at 9 and 7, run 2 at 6 and 12.
  EXPECT_DOUBLE_EQ(*m(flex::Metric::kResponseTime, CompletionSource::kPredicted), ((9 + 5) + (6 + 10)) / 2.0);
  // Replayed: run 1 lacks job 1's replay, so only run 2 counts.
  EXPECT_DOUBLE_EQ(*m(flex::Metric::kResponseTime, CompletionSource::kReplayed), 6 + 12);
  // Without deadlines a deadline metric has nothing to judge.
  EXPECT_FALSE(MeanMetric(kRows, "fair", flex::Metric::kTardiness, CompletionSource::kMeasured).has_value());
  EXPECT_DOUBLE_EQ(*MeanMetric(kRows, "fair", flex::Metric::kResponseTime, CompletionSource::kMeasured), 1);
}

TEST(MetricSummaryTest, TheMarkdownHasARowPerMetricAndAColumnPerPolicy) {
  const std::string md = MetricsMarkdown(kRows);
  EXPECT_NE(md.find("| metric | flex | fair |"), std::string::npos) << md;
  EXPECT_NE(md.find("| response-time | 16 (15 / 18) | 1 (1 / 1) |"), std::string::npos) << md;
  EXPECT_NE(md.find("| tardiness | 4 (0.5 / 6) | - (- / -) |"), std::string::npos) << md;
  EXPECT_EQ(md.find("| stretch |"), std::string::npos) << md;
}

}  // namespace
}  // namespace mr::experiment
