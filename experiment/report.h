// The report of an experiment's results directory (docs/experiments.md, "Results"):
// summary.md from jobs.csv, and PNG plots drawn by gnuplot (scatter.png: predicted vs
// measured response per job; cdf.png: measured response-time CDF per policy, predicted
// dashed) plus gantt.png, the Gantt chart of one job of one run (by default the slowest of
// the first run; web/svg_chart.h, rasterised by web/png_render.h), as the experiment file's
// `report:` says. Rebuilding from jobs.csv, runs/*/traces and report.json needs no cluster.
// Not thread-safe for one directory.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "experiment/bounds.h"
#include "experiment/experiment.h"

namespace mr::experiment {

// Everything a report needs besides the results: written by `mr experiment run` to
// DIR/report.json, read back by `mr experiment report DIR`. The bound's row is stored by
// name ("bound"); a report.json written before it had no name means the slotted SRPT bound.
struct ReportSettings {
  std::string title;
  BoundSpec bound;
  ReportSpec spec;
};
std::string ReportSettingsJson(const ReportSettings& s);
// Turns on the plot named `name` (scatter, cdf, gantt); false for another name.
bool EnablePlot(std::string_view name, ReportSpec* spec);
// The names EnablePlot knows, for messages.
inline constexpr const char* kPlotNames = "scatter, cdf, gantt";
// InvalidArgument naming the field that is wrong.
Result<ReportSettings> ParseReportSettings(std::string_view json_text);
// DIR/report.json; without one (results from before it existed), the defaults with the
// title "Experiment <DIR's last component>".
Result<ReportSettings> LoadReportSettings(const std::string& dir);

// Reads DIR/jobs.csv, writes DIR/summary.md and the plots the spec asks for into
// DIR/plots/ (with the gnuplot script and data beside them). FailedPrecondition when gnuplot
// is missing or fails (summary.md is written first either way); NotFound without jobs.csv,
// or when the spec's Gantt run or job does not exist. With bound.machines > 0 the summary
// also has each policy's bound (bounds.h, the row of bound.kind), from DIR/runs/LABEL-REP/
// (runs whose files are missing are left out of the bound's mean).
Status BuildReport(const std::string& dir, const ReportSettings& settings);

// True if `path` starts with the PNG signature.
bool IsPngFile(const std::string& path);

}  // namespace mr::experiment
