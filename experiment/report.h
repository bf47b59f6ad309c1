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

// Reads DIR/jobs.csv, writes DIR/summary.md and DIR/plots/*.png (with the gnuplot scripts
// and data beside them). FailedPrecondition when gnuplot is missing or fails (summary.md
// is written first either way); NotFound without jobs.csv.
Status BuildReport(const std::string& dir, const std::string& title);

// True if `path` starts with the PNG signature.
bool IsPngFile(const std::string& path);

}  // namespace mr::experiment
