// The metric menu of FLEX ("FLEX: A Slot Allocation Scheduling Optimizer for MapReduce
// Workloads", section 2.1): each metric is a per-job penalty of the job's completion time
// plus an aggregation over jobs (minisum: the sum; minimax: the maximum). MetricTable() is
// the one description every parser, help text and solver reads. Pure functions over
// values; thread-safe. docs/flex.md explains each metric and the choices made here.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr::flex {

enum class Metric : uint8_t {
  kResponseTime,
  kWeightedResponseTime,
  kStretch,
  kMakespan,
  kMaxStretch,
  kTardyJobs,
  kWeightedTardyJobs,
  kTardiness,
  kMaxTardiness,
  kLateness,
  kMaxLateness,
  kSla,
};

enum class Aggregation : uint8_t { kMinisum, kMinimax };

// The priority orders FLEX feeds to the Malleable Packing Scheme besides the generic RAP
// order (orders.h computes them). kNone pads MetricInfo::orders.
enum class OrderKind : uint8_t {
  kNone,
  kShortestWork,          // remaining work ascending
  kShortestAtMax,         // remaining work / maximum slots ascending
  kLongestAtMax,          // remaining work / maximum slots descending
  kWeightedShortestWork,  // remaining work / effective weight ascending (Smith's rule)
  kEarliestDeadline,      // deadline (an SLA's first pseudo-deadline) ascending
  kStretchDeadline,       // arrival + time alone ascending (deadlines of stretch 1)
  kEdfTardyLast,          // EDF, tardy jobs moved to the end one by one (Moore-Hodgson)
  kRapDeadlines,          // the jobs the moldable RAP optimum makes on time, by deadline met
  kLawler,                // built from the back: last the job cheapest to finish last (Lawler)
};

struct MetricInfo {
  Metric metric;
  std::string_view name;     // as typed on a command line: "weighted-tardy-jobs"
  std::string_view summary;  // one line for help texts
  Aggregation aggregation;
  bool uses_weight;     // the penalty is multiplied by the job's weight w_j
  bool needs_deadline;  // JobTerms::deadline must be set
  bool needs_sla;       // JobTerms::sla must hold at least one step
  bool uses_alone;      // stretch: divides by JobTerms::alone (W_j)
  // The RAP summand F_j(s) = penalty at now + work/s is convex in s. The others on the
  // menu are step functions (tardy jobs, SLA): the RAP solvers rely on this split.
  bool convex_summand;
  std::array<OrderKind, 4> orders;  // metric-specific orders tried, kNone-padded
};

// Every metric of the menu, in menu order (the order of the Metric enum).
std::span<const MetricInfo> MetricTable();
const MetricInfo& InfoOf(Metric metric);
std::string_view MetricName(Metric metric);
// "response-time, weighted-response-time, ..." for help texts and error messages.
std::string MetricNameList();
// InvalidArgument "unknown metric 'x' (one of: ...)" for a name not on the menu.
Result<Metric> ParseMetric(std::string_view name);

// One step of an SLA: finishing after `deadline` costs at least `penalty`.
struct SlaStep {
  double deadline = 0;
  double penalty = 0;
};

// What a job's penalty depends on besides its completion time. Times are on the caller's
// clock (seconds, or the model's time unit); completion times use the same clock.
struct JobTerms {
  double weight = 1;               // w_j > 0; used by the metrics marked uses_weight
  double arrival = 0;              // r_j, for response time and stretch
  std::optional<double> deadline;  // d_j
  std::vector<SlaStep> sla;        // deadlines and penalties both strictly increasing
  double alone = 0;                // W_j: the job's response time alone, > 0 for stretch
};

// Ok, or InvalidArgument with a one-line reason ("metric tardiness needs a deadline",
// "SLA pseudo-deadlines must increase: 30 then 20", "weight must be > 0, got -1", ...).
Status CheckTerms(Metric metric, const JobTerms& terms);
// Parses "d1:p1,d2:p2,..." (numbers; deadlines and penalties strictly increasing, penalties
// > 0). InvalidArgument naming the bad piece otherwise.
Result<std::vector<SlaStep>> ParseSla(std::string_view text);

// The penalty of finishing at `completion` (may be +infinity: never). `origin` is the time
// makespan counts from (the earliest arrival of the jobs judged together); the other
// metrics ignore it. REQUIRES: CheckTerms(metric, terms).ok(). Definitions (tardy means
// completion > deadline):
//   response-time C-r; weighted-response-time w(C-r); stretch, max-stretch (C-r)/W;
//   makespan C-origin; tardy-jobs [tardy]; weighted-tardy-jobs w[tardy];
//   tardiness, max-tardiness w max(0, C-d); lateness, max-lateness w(C-d);
//   sla the penalty of the last pseudo-deadline missed (0 if none is).
double Penalty(Metric metric, const JobTerms& terms, double completion, double origin);

// The weight the metric gives a job: w_j for metrics that use weights, 1/W_j for stretch,
// else 1 (Smith's rule in orders.h divides work by it).
double EffectiveWeight(Metric metric, const JobTerms& terms);

// `metric` over a set of jobs: the sum (minisum) or maximum (minimax) of the penalties, with
// origin = the earliest arrival. completions[i] belongs to terms[i]. InvalidArgument when the
// sizes differ, the set is empty or a job lacks what the metric needs (CheckTerms).
Result<double> Evaluate(Metric metric, std::span<const JobTerms> terms,
                        std::span<const double> completions);

// The objective of an epoch whose jobs chose their own metrics (the paper allows per-job
// choices): the sum of the penalties of every job with a minisum metric, plus, for each
// minimax metric present, the maximum penalty over the jobs that chose it. So a single-
// metric epoch gets exactly Evaluate(); a minimax group counts as one term of the sum.
// REQUIRES: equal sizes; every CheckTerms ok. origin as in Penalty().
double CombinedObjective(std::span<const Metric> metrics, std::span<const JobTerms> terms,
                         std::span<const double> completions, double origin);

}  // namespace mr::flex
