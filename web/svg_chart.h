// RenderSvgChart: a ChartLayout drawn as one self-contained SVG document — a
// title (job id, name, policy, response time), the Gantt chart (one
// <g class="lane" data-lane="ID"> per lane, one <rect class="bar KIND"> per bar
// with a <title> tooltip), a seconds axis, and the shuffle-rate plot with the
// job's share changes underneath. Output is deterministic. Thread-safe.
#pragma once

#include <string>

#include "web/chart_layout.h"

namespace mr::web {

struct SvgOptions {
  int width = 1200;        // pixels, whole image
  int label_width = 150;   // left column for lane labels
  int lane_height = 18;    // one Gantt row, gap included
  int rate_height = 110;   // the shuffle-rate plot
};

std::string RenderSvgChart(const ChartLayout& layout, const SvgOptions& options = {});

}  // namespace mr::web
