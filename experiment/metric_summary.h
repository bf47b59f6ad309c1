// Every metric of FLEX's menu (scheduler/flex/metrics.h) over an experiment's results, per
// policy, from the measured completions, the predicted ones and the replayed ones, so that a
// run scheduled for tardiness is judged by tardiness too (docs/experiments.md, "Metrics").
// A job completes at its planned arrival + its response time; the terms are the workload's
// per-job weight, deadline and SLA. Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "experiment/job_results.h"
#include "scheduler/flex/metrics.h"

namespace mr::experiment {

// Where a completion comes from.
enum class CompletionSource { kMeasured, kPredicted, kReplayed };

// `metric` over one policy's rows, evaluated per run (repetition) and averaged over runs.
// The deadline metrics judge only the jobs with a deadline (sla: with an SLA); the stretch
// metrics are not reported (the results hold no time alone). nullopt when no run has a job
// the metric can judge, or (replayed) when some judged job of every run lacks a replay.
std::optional<double> MeanMetric(const std::vector<JobResult>& rows, const std::string& policy,
                                 flex::Metric metric, CompletionSource source);

// The Markdown section "Metrics": one row per metric of the menu, one column per policy,
// each cell "measured (predicted / replayed)"; "-" where a value is missing.
std::string MetricsMarkdown(const std::vector<JobResult>& rows);

}  // namespace mr::experiment
