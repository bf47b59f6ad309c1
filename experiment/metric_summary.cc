#include "experiment/metric_summary.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace mr::experiment {
namespace {

std::vector<std::string> PolicyOrder(const std::vector<JobResult>& rows) {
  std::vector<std::string> out;
  for (const JobResult& r : rows) {
    if (std::find(out.begin(), out.end(), r.policy) == out.end()) out.push_back(r.policy);
  }
  return out;
}

// The job's terms with its times on the run's clock (planned arrival = 0 at the run's start).
flex::JobTerms TermsOf(const JobResult& r) {
  flex::JobTerms t;
  t.weight = r.weight > 0 ? r.weight : 1;
  t.arrival = r.arrival;
  if (r.deadline > 0) t.deadline = r.arrival + r.deadline;
  if (!r.sla.empty()) {
    if (auto steps = flex::ParseSla(r.sla); steps.ok()) {
      for (const flex::SlaStep& s : *steps) t.sla.push_back({r.arrival + s.deadline, s.penalty});
    }
  }
  return t;
}

std::string Cell(std::optional<double> v) {
  if (!v) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", *v);
  return buf;
}

}  // namespace

std::optional<double> MeanMetric(const std::vector<JobResult>& rows, const std::string& policy,
                                 flex::Metric metric, CompletionSource source) {
  const flex::MetricInfo& info = flex::InfoOf(metric);
  if (info.uses_alone) return std::nullopt;
  std::map<int, std::pair<std::vector<flex::JobTerms>, std::vector<double>>> runs;
  std::map<int, bool> complete;
  for (const JobResult& r : rows) {
    if (r.policy != policy) continue;
    flex::JobTerms t = TermsOf(r);
    if ((info.needs_deadline && !t.deadline) || (info.needs_sla && t.sla.empty())) continue;
    std::optional<double> response = source == CompletionSource::kMeasured    ? std::optional<double>(r.measured)
                                      : source == CompletionSource::kPredicted ? std::optional<double>(r.predicted)
                                                                               : r.replayed;
    complete.emplace(r.rep, true);
    if (!response) {
      complete[r.rep] = false;
      continue;
    }
    runs[r.rep].first.push_back(std::move(t));
    runs[r.rep].second.push_back(r.arrival + *response);
  }
  double sum = 0;
  int n = 0;
  for (const auto& [rep, run] : runs) {
    if (!complete[rep]) continue;
    Result<double> v = flex::Evaluate(metric, run.first, run.second);
    if (!v.ok()) continue;
    sum += *v;
    ++n;
  }
  if (n == 0) return std::nullopt;
  return sum / n;
}

std::string MetricsMarkdown(const std::vector<JobResult>& rows) {
  const std::vector<std::string> policies = PolicyOrder(rows);
  std::string md =
      "\n## Metrics\n\nEvery metric of FLEX's menu over each policy's runs (a sum over the jobs for the minisum "
      "metrics, a maximum for the minimax ones; mean over repetitions): measured (predicted / replayed). Completion = planned arrival + response time; deadline metrics judge the jobs "
      "with a deadline, sla the jobs with an SLA; stretch needs each job's time alone, which the results do not "
      "hold.\n\n| metric |";
  for (const std::string& p : policies) md += " " + p + " |";
  md += "\n|---|";
  for (size_t i = 0; i < policies.size(); ++i) md += "---|";
  md += "\n";
  for (const flex::MetricInfo& info : flex::MetricTable()) {
    if (info.uses_alone) continue;
    md += "| " + std::string(info.name) + " |";
    for (const std::string& p : policies) {
      md += " " + Cell(MeanMetric(rows, p, info.metric, CompletionSource::kMeasured)) + " (" +
            Cell(MeanMetric(rows, p, info.metric, CompletionSource::kPredicted)) + " / " +
            Cell(MeanMetric(rows, p, info.metric, CompletionSource::kReplayed)) + ") |";
    }
    md += "\n";
  }
  return md;
}

}  // namespace mr::experiment
