#include "experiment/report.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "common/file_util.h"
#include "experiment/job_results.h"
#include "experiment/live_run.h"
#include "experiment/srpt_bound.h"
#include "web/chart_layout.h"
#include "web/png_render.h"
#include "web/svg_chart.h"
#include "web/trace_reader.h"

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

std::string GnuplotScript(const std::vector<std::string>& policies) {
  std::ostringstream gp;
  gp << "set terminal pngcairo size 800,600\nset key left top\nset grid\n"
     << "set output 'scatter.png'\nset title 'Response time per job: predicted vs measured'\n"
     << "set xlabel 'measured (s)'\nset ylabel 'predicted (s)'\nplot ";
  for (size_t i = 0; i < policies.size(); ++i) {
    gp << "'scatter.dat' index " << i << " using 1:2 with points title '" << policies[i] << "', ";
  }
  gp << "x with lines lc 'gray' title 'predicted = measured'\n"
     << "set output 'cdf.png'\nset title 'Response-time CDF (solid: measured, dashed: predicted)'\n"
     << "set xlabel 'response time (s)'\nset ylabel 'fraction of jobs'\nset yrange [0:1]\nplot ";
  for (size_t i = 0; i < policies.size(); ++i) {
    gp << (i ? ", " : "") << "'cdf.dat' index " << i << " using 1:2 with steps lc " << i + 1 << " title '"
       << policies[i] << "', 'cdf.dat' index " << i << " using 3:2 with steps lc " << i + 1
       << " dt 2 notitle";
  }
  gp << "\n";
  return gp.str();
}

// The Gantt chart of the slowest job of the first run directory (runs/ sorted by name).
Status RenderGantt(const std::string& dir, const std::string& out) {
  auto runs = ListDir(JoinPath(dir, "runs"));
  if (!runs.ok() || runs->empty()) return Status::NotFound("no runs to draw");
  std::sort(runs->begin(), runs->end());
  const std::string run = JoinPath(JoinPath(dir, "runs"), runs->front());
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(JoinPath(run, "measured.csv")));
  MR_ASSIGN_OR_RETURN(std::vector<MeasuredJob> measured, ParseMeasuredCsv(text));
  if (measured.empty()) return Status::NotFound("run " + run + " has no jobs");
  auto slowest = std::max_element(measured.begin(), measured.end(),
                                  [](const MeasuredJob& a, const MeasuredJob& b) { return a.response < b.response; });
  MR_ASSIGN_OR_RETURN(auto events, web::ReadTraceFile(JoinPath(JoinPath(run, "traces"), TraceFileName(slowest->id))));
  web::SvgOptions opt;
  opt.width = 1200;
  return web::SvgToPng(web::RenderSvgChart(web::BuildChartLayout(events), opt), out);
}

// The mean over `policy`'s runs of the SRPT bound on each run's measured work; 0 when no
// run's files could be read.
double MeanRunBound(const std::string& dir, const std::vector<JobResult>& rows, const std::string& policy,
                    const BoundSpec& bound) {
  std::map<int, std::vector<JobResult>> by_rep;
  for (const JobResult& r : rows) {
    if (r.policy == policy) by_rep[r.rep].push_back(r);
  }
  std::vector<double> bounds;
  for (const auto& [rep, run_rows] : by_rep) {
    const std::string run = JoinPath(JoinPath(dir, "runs"), policy + "-" + std::to_string(rep));
    Result<double> b = RunSrptBound(run, run_rows, bound.machines, bound.round);
    if (b.ok()) bounds.push_back(*b);
  }
  return Mean(bounds);
}

}  // namespace

bool IsPngFile(const std::string& path) {
  auto text = ReadFileToString(path);
  return text.ok() && text->size() > 8 && text->compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
}

Status BuildReport(const std::string& dir, const std::string& title, const BoundSpec& bound) {
  const std::string csv = JoinPath(dir, "jobs.csv");
  if (!PathExists(csv)) return Status::NotFound("no " + csv + " (run `mr experiment run` first)");
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(csv));
  MR_ASSIGN_OR_RETURN(std::vector<JobResult> rows, ParseJobsCsv(text));
  std::vector<PolicySummary> summaries = Summarize(rows);
  if (bound.machines > 0) {
    for (PolicySummary& s : summaries) s.srpt_bound = MeanRunBound(dir, rows, s.policy, bound);
  }
  MR_RETURN_IF_ERROR(WriteFileAtomically(JoinPath(dir, "summary.md"), SummaryMarkdown(summaries, title)));
  const std::string plots = JoinPath(dir, "plots");
  MR_RETURN_IF_ERROR(MakeDirs(plots));
  std::vector<std::string> policies = Policies(rows);
  std::string scatter, cdf;
  WritePlotData(rows, policies, &scatter, &cdf);
  MR_RETURN_IF_ERROR(WriteStringToFile(JoinPath(plots, "scatter.dat"), scatter));
  MR_RETURN_IF_ERROR(WriteStringToFile(JoinPath(plots, "cdf.dat"), cdf));
  MR_RETURN_IF_ERROR(WriteStringToFile(JoinPath(plots, "plots.gp"), GnuplotScript(policies)));
  const std::string cmd = "cd " + ShellQuote(plots) + " && gnuplot plots.gp > gnuplot.log 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    return Status::FailedPrecondition("gnuplot failed (is gnuplot-nox installed? see " +
                                      JoinPath(plots, "gnuplot.log") + ")");
  }
  return RenderGantt(dir, JoinPath(plots, "gantt.png"));
}

}  // namespace mr::experiment
