// The report of an experiment's results directory (docs/experiments.md, "Results"):
// summary.md from jobs.csv, and PNG plots drawn by gnuplot (scatter.png: predicted vs
// measured response per job; cdf.png: measured response-time CDF per policy, predicted
// dashed) plus gantt.png, the Gantt chart of the slowest job of the first run
// (web/svg_chart.h, rasterised by web/png_render.h). Rebuilding from jobs.csv and
// runs/*/traces needs no cluster. Not thread-safe for one directory.
#pragma once

#include <string>

#include "common/status.h"

namespace mr::experiment {

// What the SRPT bound of the summary is computed on (srpt_bound.h): the cluster's unified
// slots and the round in seconds. machines == 0: no bound.
struct BoundSpec {
  int machines = 0;
  double round = 1;
};

// Reads DIR/jobs.csv, writes DIR/summary.md and DIR/plots/*.png (with the gnuplot scripts
// and data beside them). FailedPrecondition when gnuplot is missing or fails (summary.md
// is written first either way); NotFound without jobs.csv. With bound.machines > 0 the
// summary also has each policy's SRPT bound, from DIR/runs/LABEL-REP/ (runs whose files
// are missing are left out of the bound's mean).
Status BuildReport(const std::string& dir, const std::string& title, const BoundSpec& bound = {});

// True if `path` starts with the PNG signature.
bool IsPngFile(const std::string& path);

}  // namespace mr::experiment
