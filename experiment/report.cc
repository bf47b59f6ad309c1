#include "experiment/report.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "common/file_util.h"
#include "common/stats.h"
#include "experiment/aria_check.h"
#include "experiment/batch_plan_report.h"
#include "experiment/fidelity_bounds.h"
#include "experiment/job_results.h"
#include "experiment/live_run.h"
#include "experiment/metric_summary.h"
#include "trace/reader.h"
#include "web/chart_layout.h"
#include "web/png_render.h"
#include "web/svg_chart.h"

namespace mr::experiment {

namespace {

std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::vector<std::string> Policies(const std::vector<JobResult>& rows) {
  std::vector<std::string> out;
  for (const JobResult& r : rows) {
    if (std::find(out.begin(), out.end(), r.policy) == out.end()) out.push_back(r.policy);
  }
  return out;
}

// One gnuplot data block per policy (blocks split by two blank lines, `index i`):
// scatter.dat "measured predicted", cdf.dat "measured-sorted fraction predicted-sorted".
void WritePlotData(const std::vector<JobResult>& rows, const std::vector<std::string>& policies,
                   std::string* scatter, std::string* cdf) {
  char line[128];
  for (const std::string& p : policies) {
    std::vector<double> measured, predicted;
    *scatter += "# " + p + "\n";
    for (const JobResult& r : rows) {
      if (r.policy != p) continue;
      std::snprintf(line, sizeof line, "%.6g %.6g\n", r.measured, r.predicted);
      *scatter += line;
      measured.push_back(r.measured);
      predicted.push_back(r.predicted);
    }
    std::sort(measured.begin(), measured.end());
    std::sort(predicted.begin(), predicted.end());
    *cdf += "# " + p + "\n";
    for (size_t i = 0; i < measured.size(); ++i) {
      std::snprintf(line, sizeof line, "%.6g %.6g %.6g\n", measured[i], (i + 1.0) / measured.size(), predicted[i]);
      *cdf += line;
    }
    *scatter += "\n\n";
    *cdf += "\n\n";
  }
}

std::string GnuplotScript(const std::vector<std::string>& policies, const ReportSpec& spec) {
  std::ostringstream gp;
  gp << "set terminal pngcairo size 800,600\nset key left top\nset grid\n";
  if (spec.scatter) {
    gp << "set output 'scatter.png'\nset title 'Response time per job: predicted vs measured'\n"
       << "set xlabel 'measured (s)'\nset ylabel 'predicted (s)'\nplot ";
    for (size_t i = 0; i < policies.size(); ++i) {
      gp << "'scatter.dat' index " << i << " using 1:2 with points title '" << policies[i] << "', ";
    }
    gp << "x with lines lc 'gray' title 'predicted = measured'\n";
  }
  if (!spec.cdf) return gp.str();
  gp << "set output 'cdf.png'\nset title 'Response-time CDF (solid: measured, dashed: predicted)'\n"
     << "set xlabel 'response time (s)'\nset ylabel 'fraction of jobs'\nset yrange [0:1]\nplot ";
  for (size_t i = 0; i < policies.size(); ++i) {
    gp << (i ? ", " : "") << "'cdf.dat' index " << i << " using 1:2 with steps lc " << i + 1 << " title '"
       << policies[i] << "', 'cdf.dat' index " << i << " using 3:2 with steps lc " << i + 1
       << " dt 2 notitle";
  }
  gp << "\n";
  return gp.str();
}

// The Gantt chart of the spec's job (slowest, fastest, or a workload index) of the spec's
// run (default: the first finished run directory, runs/ sorted by name).
Status RenderGantt(const std::string& dir, const ReportSpec& spec, const std::string& out) {
  std::string name = spec.gantt_run;
  if (name.empty()) {
    auto runs = ListDir(JoinPath(dir, "runs"));
    if (!runs.ok() || runs->empty()) return Status::NotFound("no runs to draw");
    std::sort(runs->begin(), runs->end());
    name = runs->front();
  }
  const std::string run = JoinPath(JoinPath(dir, "runs"), name);
  if (!PathExists(JoinPath(run, "measured.csv"))) {
    return Status::NotFound("the Gantt chart's run " + name + " has not finished (no " + run + "/measured.csv)");
  }
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(JoinPath(run, "measured.csv")));
  MR_ASSIGN_OR_RETURN(std::vector<MeasuredJob> measured, ParseMeasuredCsv(text));
  if (measured.empty()) return Status::NotFound("run " + run + " has no jobs");
  auto by_response = [](const MeasuredJob& a, const MeasuredJob& b) { return a.response < b.response; };
  auto chosen = spec.gantt_job == "fastest" ? std::min_element(measured.begin(), measured.end(), by_response)
                                            : std::max_element(measured.begin(), measured.end(), by_response);
  if (spec.gantt_job != "slowest" && spec.gantt_job != "fastest") {
    const int index = std::atoi(spec.gantt_job.c_str());
    chosen = std::find_if(measured.begin(), measured.end(), [&](const MeasuredJob& m) { return m.job == index; });
    if (chosen == measured.end()) return Status::NotFound("run " + name + " has no job " + spec.gantt_job);
  }
  MR_ASSIGN_OR_RETURN(auto events, trace::ReadTraceFile(JoinPath(JoinPath(run, "traces"), TraceFileName(chosen->id))));
  web::SvgOptions opt;
  opt.width = 1200;
  return web::SvgToPng(web::RenderSvgChart(web::BuildChartLayout(events), opt), out);
}

// The mean over `policy`'s runs of the bound (its row's function) on each run's measured
// work; 0 when no run's files could be read.
double MeanRunBound(const std::string& dir, const std::vector<JobResult>& rows, const std::string& policy,
                    const BoundSpec& bound) {
  std::map<int, std::vector<JobResult>> by_rep;
  for (const JobResult& r : rows) {
    if (r.policy == policy) by_rep[r.rep].push_back(r);
  }
  std::vector<double> bounds;
  for (const auto& [rep, run_rows] : by_rep) {
    const std::string run = JoinPath(JoinPath(dir, "runs"), policy + "-" + std::to_string(rep));
    Result<double> b = FindBound(bound.kind)->compute(run, run_rows, bound);
    if (b.ok()) bounds.push_back(*b);
  }
  return Mean(bounds);
}

}  // namespace

bool IsPngFile(const std::string& path) {
  auto text = ReadFileToString(path);
  return text.ok() && text->size() > 8 && text->compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
}

bool EnablePlot(std::string_view name, ReportSpec* spec) {
  bool* plot = name == "scatter" ? &spec->scatter : name == "cdf" ? &spec->cdf : name == "gantt" ? &spec->gantt : nullptr;
  if (plot != nullptr) *plot = true;
  return plot != nullptr;
}

std::string ReportSettingsJson(const ReportSettings& s) {
  nlohmann::json plots = nlohmann::json::array();
  if (s.spec.scatter) plots.push_back("scatter");
  if (s.spec.cdf) plots.push_back("cdf");
  if (s.spec.gantt) plots.push_back("gantt");
  nlohmann::json j = {{"title", s.title},
                      {"bound", FindBound(s.bound.kind)->name},
                      {"bound_machines", s.bound.machines},
                      {"bound_round", s.bound.round},
                      {"tail", s.spec.tail_percentile},
                      {"plots", plots},
                      {"gantt_run", s.spec.gantt_run},
                      {"gantt_job", s.spec.gantt_job},
                      {"band_runs", s.spec.band_runs},
                      {"band_jitter", s.spec.band_jitter}};
  // Only when set, so that report.json files of the default band read as before.
  if (s.spec.band_map_time_cv > 0) j["band_map_time_cv"] = s.spec.band_map_time_cv;
  return j.dump(2) + "\n";
}

Result<ReportSettings> ParseReportSettings(std::string_view json_text) {
  nlohmann::json j = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return Status::InvalidArgument("report.json: not a JSON object");
  ReportSettings s;
  auto field = [&](const char* key, auto check) -> Status {
    auto it = j.find(key);
    if (it == j.end() || !check(*it)) return Status::InvalidArgument(std::string("report.json: bad or missing '") + key + "'");
    return Status::Ok();
  };
  MR_RETURN_IF_ERROR(field("title", [](const nlohmann::json& v) { return v.is_string(); }));
  MR_RETURN_IF_ERROR(field("bound_machines", [](const nlohmann::json& v) { return v.is_number_integer() && v >= 0; }));
  MR_RETURN_IF_ERROR(field("bound_round", [](const nlohmann::json& v) { return v.is_number() && v > 0; }));
  MR_RETURN_IF_ERROR(field("tail", [](const nlohmann::json& v) { return v.is_number_integer() && v > 50 && v < 100; }));
  MR_RETURN_IF_ERROR(field("plots", [](const nlohmann::json& v) { return v.is_array(); }));
  MR_RETURN_IF_ERROR(field("gantt_run", [](const nlohmann::json& v) { return v.is_string(); }));
  MR_RETURN_IF_ERROR(field("gantt_job", [](const nlohmann::json& v) { return v.is_string(); }));
  s.title = j["title"].get<std::string>();
  s.bound.machines = j["bound_machines"].get<int>();
  s.bound.round = j["bound_round"].get<double>();
  if (auto it = j.find("bound"); it != j.end()) {
    const BoundRow* row = it->is_string() ? FindBound(it->get<std::string>()) : nullptr;
    if (row == nullptr) return Status::InvalidArgument("report.json: unknown bound " + it->dump());
    s.bound.kind = row->kind;
  }
  s.spec.tail_percentile = j["tail"].get<int>();
  s.spec.scatter = s.spec.cdf = s.spec.gantt = false;
  for (const nlohmann::json& p : j["plots"]) {
    if (!p.is_string() || !EnablePlot(p.get<std::string>(), &s.spec)) {
      return Status::InvalidArgument("report.json: unknown plot " + p.dump());
    }
  }
  s.spec.gantt_run = j["gantt_run"].get<std::string>();
  s.spec.gantt_job = j["gantt_job"].get<std::string>();
  // Optional: report.json files from before the band have neither (the defaults).
  if (auto it = j.find("band_runs"); it != j.end()) {
    if (!it->is_number_integer() || *it < 0 || *it > 64) return Status::InvalidArgument("report.json: bad 'band_runs'");
    s.spec.band_runs = it->get<int>();
  }
  if (auto it = j.find("band_jitter"); it != j.end()) {
    if (!it->is_number() || !(*it > 0)) return Status::InvalidArgument("report.json: bad 'band_jitter'");
    s.spec.band_jitter = it->get<double>();
  }
  if (auto it = j.find("band_map_time_cv"); it != j.end()) {
    if (!it->is_number() || !(*it >= 0 && *it <= 1)) return Status::InvalidArgument("report.json: bad 'band_map_time_cv'");
    s.spec.band_map_time_cv = it->get<double>();
  }
  return s;
}

Result<ReportSettings> LoadReportSettings(const std::string& dir) {
  const std::string path = JoinPath(dir, "report.json");
  if (PathExists(path)) {
    MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
    return ParseReportSettings(text);
  }
  std::string d = dir;
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  ReportSettings s;
  s.title = "Experiment " + d.substr(d.find_last_of('/') == std::string::npos ? 0 : d.find_last_of('/') + 1);
  return s;
}

Status BuildReport(const std::string& dir, const ReportSettings& settings) {
  const std::string& title = settings.title;
  const BoundSpec& bound = settings.bound;
  const ReportSpec& spec = settings.spec;
  const std::string csv = JoinPath(dir, "jobs.csv");
  if (!PathExists(csv)) return Status::NotFound("no " + csv + " (run `mr experiment run` first)");
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(csv));
  MR_ASSIGN_OR_RETURN(std::vector<JobResult> rows, ParseJobsCsv(text));
  std::vector<PolicySummary> summaries = Summarize(rows, spec.tail_percentile / 100.0);
  if (bound.machines > 0) {
    for (PolicySummary& s : summaries) s.srpt_bound = MeanRunBound(dir, rows, s.policy, bound);
  }
  const std::vector<StageCheck> stages = CheckRunStages(dir);
  if (!stages.empty()) MR_RETURN_IF_ERROR(WriteFileAtomically(JoinPath(dir, "aria.csv"), AriaCsv(stages)));
  MR_RETURN_IF_ERROR(WriteFileAtomically(JoinPath(dir, "summary.md"),
                                         SummaryMarkdown(summaries, title) +
                                             FidelityMarkdown(rows, spec.band_runs, spec.band_jitter, spec.band_map_time_cv) +
                                             MetricsMarkdown(rows) +
                                             BatchPlansMarkdown(dir, summaries) + AriaMarkdown(stages)));
  const std::string plots = JoinPath(dir, "plots");
  MR_RETURN_IF_ERROR(MakeDirs(plots));
  std::vector<std::string> policies = Policies(rows);
  std::string scatter, cdf;
  WritePlotData(rows, policies, &scatter, &cdf);
  MR_RETURN_IF_ERROR(WriteStringToFile(JoinPath(plots, "scatter.dat"), scatter));
  MR_RETURN_IF_ERROR(WriteStringToFile(JoinPath(plots, "cdf.dat"), cdf));
  MR_RETURN_IF_ERROR(WriteStringToFile(JoinPath(plots, "plots.gp"), GnuplotScript(policies, spec)));
  // A plot the spec no longer asks for is removed, so that plots/ shows what summary.md says.
  for (const auto& [wanted, png] : {std::pair{spec.scatter, "scatter.png"}, std::pair{spec.cdf, "cdf.png"},
                                    std::pair{spec.gantt, "gantt.png"}}) {
    if (!wanted) (void)RemoveAll(JoinPath(plots, png));
  }
  if (spec.scatter || spec.cdf) {
    const std::string cmd = "cd " + ShellQuote(plots) + " && gnuplot plots.gp > gnuplot.log 2>&1";
    if (std::system(cmd.c_str()) != 0) {
      return Status::FailedPrecondition("gnuplot failed (is gnuplot-nox installed? see " +
                                        JoinPath(plots, "gnuplot.log") + ")");
    }
  }
  return spec.gantt ? RenderGantt(dir, spec, JoinPath(plots, "gantt.png")) : Status::Ok();
}

}  // namespace mr::experiment
