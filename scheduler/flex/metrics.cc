#include "scheduler/flex/metrics.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace mr::flex {
namespace {

using enum Metric;
using enum OrderKind;
constexpr Aggregation kSum = Aggregation::kMinisum;
constexpr Aggregation kMax = Aggregation::kMinimax;

// name, summary, aggregation, uses_weight, needs_deadline, needs_sla, uses_alone, convex,
// specific orders. docs/flex.md says why each metric gets the orders it gets.
// clang-format off
constexpr MetricInfo kTable[] = {
    {kResponseTime, "response-time", "sum (mean) of response times C-r", kSum, false, false, false,
     false, true, {kShortestAtMax, kShortestWork, kNone}},
    {kWeightedResponseTime, "weighted-response-time", "sum of weighted response times w(C-r)",
     kSum, true, false, false, false, true, {kWeightedShortestWork, kShortestAtMax, kNone}},
    {kStretch, "stretch", "sum (mean) of stretches (C-r)/W, W = the job's time alone", kSum,
     false, false, false, true, true, {kWeightedShortestWork, kShortestAtMax, kNone}},
    {kMakespan, "makespan", "completion time of the last job", kMax, false, false, false, false,
     true, {kLongestAtMax, kLawler}},
    {kMaxStretch, "max-stretch", "largest stretch (C-r)/W", kMax, false, false, false, true, true,
     {kStretchDeadline, kShortestAtMax, kLawler}},
    {kTardyJobs, "tardy-jobs", "number of jobs finishing after their deadline", kSum, false, true,
     false, false, false, {kEdfTardyLast, kRapDeadlines, kEarliestDeadline}},
    {kWeightedTardyJobs, "weighted-tardy-jobs", "sum of the weights of the tardy jobs", kSum, true,
     true, false, false, false, {kEdfTardyLast, kRapDeadlines, kEarliestDeadline}},
    {kTardiness, "tardiness", "sum of tardiness w max(0, C-d)", kSum, true, true, false, false,
     true, {kEarliestDeadline, kWeightedShortestWork, kEdfTardyLast, kRapDeadlines}},
    {kMaxTardiness, "max-tardiness", "largest tardiness w max(0, C-d)", kMax, true, true, false,
     false, true, {kEarliestDeadline, kRapDeadlines, kLawler}},
    {kLateness, "lateness", "sum of lateness w(C-d) (negative when early)", kSum, true, true, false,
     false, true, {kWeightedShortestWork, kShortestAtMax, kNone}},
    {kMaxLateness, "max-lateness", "largest lateness w(C-d)", kMax, true, true, false, false, true,
     {kEarliestDeadline, kRapDeadlines, kLawler}},
    {kSla, "sla", "sum of SLA penalties (the step of the last pseudo-deadline missed)", kSum, false,
     false, true, false, false, {kEdfTardyLast, kRapDeadlines, kEarliestDeadline}},
};
// clang-format on
static_assert(std::size(kTable) == static_cast<size_t>(kSla) + 1);

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string Num(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : "?";
}

Result<double> ParseNumber(std::string_view text, std::string_view what) {
  double v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v)) {
    return Status::InvalidArgument("SLA " + std::string(what) + " '" + std::string(text) +
                                   "' is not a number");
  }
  return v;
}

Status CheckSlaSteps(std::span<const SlaStep> steps) {
  for (size_t i = 0; i < steps.size(); ++i) {
    if (!std::isfinite(steps[i].deadline) || !(steps[i].penalty > 0) ||
        !std::isfinite(steps[i].penalty)) {
      return Status::InvalidArgument("SLA step " + std::to_string(i + 1) +
                                     " needs a finite deadline and a penalty > 0");
    }
    if (i == 0) continue;
    if (!(steps[i].deadline > steps[i - 1].deadline)) {
      return Status::InvalidArgument(
          "SLA pseudo-deadlines must increase: " + Num(steps[i - 1].deadline) + " then " +
          Num(steps[i].deadline));
    }
    if (!(steps[i].penalty > steps[i - 1].penalty)) {
      return Status::InvalidArgument("SLA penalties must increase: " + Num(steps[i - 1].penalty) +
                                     " then " + Num(steps[i].penalty));
    }
  }
  return Status::Ok();
}

}  // namespace

std::span<const MetricInfo> MetricTable() { return kTable; }

const MetricInfo& InfoOf(Metric metric) { return kTable[static_cast<size_t>(metric)]; }

std::string_view MetricName(Metric metric) { return InfoOf(metric).name; }

std::string MetricNameList() {
  std::string out;
  for (const MetricInfo& m : kTable) {
    if (!out.empty()) out += ", ";
    out += m.name;
  }
  return out;
}

Result<Metric> ParseMetric(std::string_view name) {
  for (const MetricInfo& m : kTable) {
    if (m.name == name) return m.metric;
  }
  return Status::InvalidArgument("unknown metric '" + std::string(name) +
                                 "' (one of: " + MetricNameList() + ")");
}

Status CheckTerms(Metric metric, const JobTerms& terms) {
  const MetricInfo& info = InfoOf(metric);
  if (!(terms.weight > 0) || !std::isfinite(terms.weight)) {
    return Status::InvalidArgument("weight must be > 0, got " + Num(terms.weight));
  }
  if (!std::isfinite(terms.arrival)) return Status::InvalidArgument("arrival must be finite");
  if (info.needs_deadline && !terms.deadline) {
    return Status::InvalidArgument("metric " + std::string(info.name) + " needs a deadline");
  }
  if (terms.deadline && !std::isfinite(*terms.deadline)) {
    return Status::InvalidArgument("deadline must be finite");
  }
  if (info.needs_sla && terms.sla.empty()) {
    return Status::InvalidArgument("metric sla needs SLA steps (deadline:penalty,...)");
  }
  MR_RETURN_IF_ERROR(CheckSlaSteps(terms.sla));
  if (info.uses_alone && (!(terms.alone > 0) || !std::isfinite(terms.alone))) {
    return Status::InvalidArgument("metric " + std::string(info.name) +
                                   " needs the job's time alone > 0, got " + Num(terms.alone));
  }
  return Status::Ok();
}

Result<std::vector<SlaStep>> ParseSla(std::string_view text) {
  std::vector<SlaStep> steps;
  if (text.empty()) return Status::InvalidArgument("SLA is empty (want deadline:penalty,...)");
  while (true) {
    size_t comma = text.find(',');
    std::string_view piece = text.substr(0, comma);
    size_t colon = piece.find(':');
    if (colon == std::string_view::npos) {
      return Status::InvalidArgument("SLA step '" + std::string(piece) +
                                     "' is not deadline:penalty");
    }
    SlaStep step;
    MR_ASSIGN_OR_RETURN(step.deadline, ParseNumber(piece.substr(0, colon), "deadline"));
    MR_ASSIGN_OR_RETURN(step.penalty, ParseNumber(piece.substr(colon + 1), "penalty"));
    steps.push_back(step);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  MR_RETURN_IF_ERROR(CheckSlaSteps(steps));
  return steps;
}

double Penalty(Metric metric, const JobTerms& t, double completion, double origin) {
  const double c = completion;
  const double d = t.deadline.value_or(0);
  switch (metric) {
    case kResponseTime:
      return c - t.arrival;
    case kWeightedResponseTime:
      return t.weight * (c - t.arrival);
    case kStretch:
    case kMaxStretch:
      return (c - t.arrival) / t.alone;
    case kMakespan:
      return c - origin;
    case kTardyJobs:
      return c > d ? 1.0 : 0.0;
    case kWeightedTardyJobs:
      return c > d ? t.weight : 0.0;
    case kTardiness:
    case kMaxTardiness:
      return c > d ? t.weight * (c - d) : 0.0;
    case kLateness:
    case kMaxLateness:
      return t.weight * (c - d);
    case kSla: {
      double p = 0;
      for (const SlaStep& s : t.sla) {
        if (c > s.deadline) p = s.penalty;
      }
      return p;
    }
  }
  return kInf;
}

double EffectiveWeight(Metric metric, const JobTerms& terms) {
  const MetricInfo& info = InfoOf(metric);
  if (info.uses_alone) return 1.0 / terms.alone;
  return info.uses_weight ? terms.weight : 1.0;
}

Result<double> Evaluate(Metric metric, std::span<const JobTerms> terms,
                        std::span<const double> completions) {
  if (terms.size() != completions.size()) {
    return Status::InvalidArgument("Evaluate: " + std::to_string(terms.size()) + " jobs but " +
                                   std::to_string(completions.size()) + " completion times");
  }
  if (terms.empty()) return Status::InvalidArgument("Evaluate: no jobs");
  double origin = kInf;
  for (size_t i = 0; i < terms.size(); ++i) {
    Status st = CheckTerms(metric, terms[i]);
    if (!st.ok()) return st.WithContext("job " + std::to_string(i));
    origin = std::min(origin, terms[i].arrival);
  }
  const bool minimax = InfoOf(metric).aggregation == Aggregation::kMinimax;
  double value = minimax ? -kInf : 0.0;
  for (size_t i = 0; i < terms.size(); ++i) {
    double p = Penalty(metric, terms[i], completions[i], origin);
    value = minimax ? std::max(value, p) : value + p;
  }
  return value;
}

double CombinedObjective(std::span<const Metric> metrics, std::span<const JobTerms> terms,
                         std::span<const double> completions, double origin) {
  std::array<double, std::size(kTable)> group_max;
  group_max.fill(-kInf);
  double sum = 0;
  for (size_t i = 0; i < metrics.size(); ++i) {
    double p = Penalty(metrics[i], terms[i], completions[i], origin);
    if (InfoOf(metrics[i]).aggregation == Aggregation::kMinisum) {
      sum += p;
    } else {
      double& g = group_max[static_cast<size_t>(metrics[i])];
      g = std::max(g, p);
    }
  }
  for (double g : group_max) {
    if (g != -kInf) sum += g;
  }
  return sum;
}

}  // namespace mr::flex
