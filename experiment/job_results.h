// The per-job results of an experiment (results/NAME/jobs.csv) and the summary maths over
// them: one JobResult per (policy, repetition, job), measured on the live cluster and
// predicted by the task-level simulator from the experiment file and the calibration
// alone. Errors are relative: (predicted - measured) / measured. Pure functions;
// thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr::experiment {

// A job's response time over K simulations of one run (experiment/band.h): the smallest, the
// largest and their mean, in seconds.
struct Band {
  double lo = 0;
  double hi = 0;
  double mean = 0;
};

struct JobResult {
  std::string policy;
  int rep = 1;
  int job = 0;          // index in the workload's job list
  double arrival = 0;   // planned, seconds from the run's start
  int maps = 0;
  double map_seconds = 0;    // per map, on a worker of speed 1
  double shuffle_bytes = 0;  // the job's total map output
  int reducers = 0;
  double measured = 0;   // response time, master's submit to end (s)
  double predicted = 0;  // the simulator's response time (s)
  double since_planned = 0;  // measured end minus planned arrival (s): includes submission lag
  std::string work = "burn";  // how the synthetic tasks spent their work (experiment.h WorkMode)
  // The run's own traces replayed through the simulator under the policy that ran
  // (experiment/replay_prediction.h): its response time (s). Empty when the run could not
  // be replayed (the runner logs why).
  std::optional<double> replayed = std::nullopt;
  // The job's terms for the metric menu (scheduler/flex/metrics.h; the workload's per-job
  // parameters): weight, deadline in seconds after arrival (0 = none), SLA steps
  // "d1:p1,d2:p2" after arrival ("" = none).
  double weight = 1;
  double deadline = 0;
  std::string sla{};
  // The band of the replay (the run's traces, K jittered replays) and of the prediction (K
  // jittered predictions); empty when not computed (band runs 0, no replay, older files).
  std::optional<Band> replay_band = std::nullopt;
  std::optional<Band> predicted_band = std::nullopt;
};

// predicted / measured - 1; 0 when measured is 0.
double RelativeError(double predicted, double measured);

// jobs.csv: a header line, then one line per result; `replayed` and `replay_error` are
// empty for a job without a replay; the SLA's commas are written as ';'. Parse errors name
// the line. Files written before the work and replay columns existed (12 columns) parse
// with work = "burn" (the only mode then) and no replay; files before the weight, deadline
// and sla columns (15) with weight 1 and no deadline or SLA; files before the band columns
// (18: replay_lo, replay_hi, replay_band_mean, predicted_lo, predicted_hi,
// predicted_band_mean, each empty without a band) with no band.
std::string JobsCsv(const std::vector<JobResult>& rows);
Result<std::vector<JobResult>> ParseJobsCsv(std::string_view text);

// One policy's figures over all its repetitions. The *_tail figures are at the report's
// tail percentile (PolicySummary::tail; the 90th unless the experiment file's report says).
struct PolicySummary {
  std::string policy;
  double tail = 0.9;  // the quantile of the *_tail figures
  int runs = 0;
  int jobs = 0;  // rows
  double measured_mean = 0, measured_median = 0, measured_tail = 0;
  double predicted_mean = 0;
  double error_median = 0, error_tail = 0;  // of |RelativeError| per job
  // Per run: last (arrival + since_planned), resp. last (arrival + predicted), minus the first
  // arrival; averaged over runs. makespan_error is |predicted / measured - 1|.
  double measured_makespan = 0, predicted_makespan = 0, makespan_error = 0;
  // Total flow time: the sum of the run's response times, averaged over runs (the ASRPT
  // paper's objective). The predicted one sums the simulator's responses of the same jobs.
  double measured_total_flow = 0, predicted_total_flow = 0;
  // Each run's measured mean response time, by repetition number, and their spread:
  // (max - min) / mean of those means (0 with one run). How far one run can be trusted.
  std::vector<double> run_means;
  double run_spread = 0;
  std::string work;  // the work modes of its rows, "+"-joined in order of appearance
  // The SRPT lower bound on the work its runs measured (srpt_bound.h), mean over runs, in
  // seconds of total flow time; 0 = not computed (Summarize leaves it; the report sets it).
  double srpt_bound = 0;
  // The replay (rows with a replayed value only): how many, their mean, the median and
  // tail percentile of |RelativeError(replayed, measured)|, and the makespan error of the
  // runs whose every job was replayed (0 when none was).
  int replayed_jobs = 0;
  double replayed_mean = 0;
  double replay_error_median = 0, replay_error_tail = 0;
  double replayed_makespan = 0, replay_makespan_error = 0;
};

// One summary per policy, in order of first appearance in `rows`; tail in (0.5, 1).
std::vector<PolicySummary> Summarize(const std::vector<JobResult>& rows, double tail = 0.9);
// The summary as Markdown: the prediction table with a one-paragraph legend, the replay
// table, when some policy ran more than once a table of each run's mean and their spread, and when some policy has an srpt_bound, a table of total flow time against it.
std::string SummaryMarkdown(const std::vector<PolicySummary>& summaries, std::string_view title);

}  // namespace mr::experiment
