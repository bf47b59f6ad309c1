#include "experiment/aria_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

#include "common/file_util.h"
#include "model/makespan/aria_profile.h"
#include "model/makespan/profile_extract.h"
#include "trace/reader.h"

namespace mr::experiment {

namespace {

constexpr double kShortestStage = 0.1;  // seconds: shorter stages are left out of the errors

std::string Percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * v);
  return buf;
}

struct Errors {
  std::vector<double> map, reduce;
};

void Add(std::vector<double>& out, double estimate, double measured) {
  if (measured >= kShortestStage) out.push_back(std::abs(estimate / measured - 1));
}

std::string Cells(std::vector<double> e) {
  if (e.empty()) return "- | - | -";
  std::sort(e.begin(), e.end());
  const double median = e.size() % 2 ? e[e.size() / 2] : (e[e.size() / 2 - 1] + e[e.size() / 2]) / 2;
  const auto within = std::count_if(e.begin(), e.end(), [](double v) { return v <= 0.10; });
  return Percent(median) + " | " + Percent(e.back()) + " | " + std::to_string(within) + "/" + std::to_string(e.size());
}

}  // namespace

int PeakAttempts(const std::vector<trace::Event>& events, char kind) {
  std::vector<std::pair<double, int>> edges;  // (time, +1 start / -1 end); ends first on ties
  for (const trace::Event& e : events) {
    const auto* a = std::get_if<trace::AttemptEnd>(&e);
    if (a == nullptr || !a->task || a->task->empty() || (*a->task)[0] != kind || !a->start) continue;
    edges.emplace_back(*a->start, +1);
    edges.emplace_back(a->t, -1);
  }
  std::sort(edges.begin(), edges.end());
  int now = 0, peak = 0;
  for (const auto& [t, d] : edges) peak = std::max(peak, now += d);
  return std::max(1, peak);
}

Result<StageCheck> CheckJobStages(const std::vector<trace::Event>& events) {
  MR_ASSIGN_OR_RETURN(model::JobProfile p, model::ExtractProfile(events));
  StageCheck c;
  for (const trace::Event& e : events) {
    if (const auto* s = std::get_if<trace::JobSubmit>(&e)) c.job = s->job;
  }
  c.map_slots = PeakAttempts(events, 'm');
  c.reduce_slots = PeakAttempts(events, 'r');
  MR_ASSIGN_OR_RETURN(model::JobEstimate est, model::EstimateJob(p, c.map_slots, c.reduce_slots));
  c.map_measured = p.measured_map_stage;
  c.map_estimate = est.map_estimate();
  c.reduce_measured = p.measured_reduce_stage;
  c.reduce_estimate = est.reduce_estimate();
  return c;
}

std::vector<StageCheck> CheckRunStages(const std::string& dir) {
  std::vector<StageCheck> out;
  const std::string runs = JoinPath(dir, "runs");
  Result<std::vector<std::string>> names = ListDir(runs);
  if (!names.ok()) return out;
  std::sort(names->begin(), names->end());
  for (const std::string& run : *names) {
    const std::string traces = JoinPath(JoinPath(runs, run), "traces");
    if (!PathExists(JoinPath(JoinPath(runs, run), "DONE"))) continue;
    Result<std::vector<std::string>> files = ListDir(traces);
    if (!files.ok()) continue;
    std::sort(files->begin(), files->end());
    for (const std::string& f : *files) {
      Result<std::vector<trace::Event>> events = trace::ReadTraceFile(JoinPath(traces, f));
      if (!events.ok()) continue;
      Result<StageCheck> c = CheckJobStages(*events);
      if (!c.ok()) continue;
      c->run = run;
      out.push_back(std::move(*c));
    }
  }
  return out;
}

std::string AriaMarkdown(const std::vector<StageCheck>& checks) {
  if (checks.empty()) return "";
  std::map<std::string, Errors> by_label;  // LABEL of LABEL-REP
  std::map<std::string, int> jobs;
  for (const StageCheck& c : checks) {
    const std::string label = c.run.substr(0, c.run.find_last_of('-'));
    Add(by_label[label].map, c.map_estimate, c.map_measured);
    Add(by_label[label].reduce, c.reduce_estimate, c.reduce_measured);
    ++jobs[label];
  }
  std::string out =
      "\n## ARIA stage estimates\n\n"
      "Each job's profile measured from its trace, and the paper's estimate of its map and reduce\n"
      "stages (the average of the ARIA bounds) on the slots the job had (the most of its map,\n"
      "resp. reduce, attempts at once), against the stage its trace measured (docs/makespan.md).\n"
      "Error: |estimate / measured - 1|; stages under 0.1 s are left out. The paper's claim: within 10%.\n"
      "Per job: DIR/aria.csv.\n\n"
      "| policy | jobs | map error median | max | within 10% | reduce error median | max | within 10% |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& [label, e] : by_label) {
    out += "| " + label + " | " + std::to_string(jobs[label]) + " | " + Cells(e.map) + " | " + Cells(e.reduce) + " |\n";
  }
  return out;
}

std::string AriaCsv(const std::vector<StageCheck>& checks) {
  std::string out = "run,job,map_slots,reduce_slots,map_measured,map_estimate,reduce_measured,reduce_estimate\n";
  char line[256];
  for (const StageCheck& c : checks) {
    std::snprintf(line, sizeof line, ",%d,%d,%.4f,%.4f,%.4f,%.4f\n", c.map_slots, c.reduce_slots, c.map_measured,
                  c.map_estimate, c.reduce_measured, c.reduce_estimate);
    out += c.run + "," + c.job + line;
  }
  return out;
}

}  // namespace mr::experiment
