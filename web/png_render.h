// SvgToPng: rasterises an SVG document to a PNG file in-process with librsvg
// and cairo, which are loaded with dlopen on first use (not linked, so other mr
// processes do not pay for them at start-up). When they are missing at run time,
// or mrlab was built without their headers, it returns FailedPrecondition saying
// so. Thread-compatible.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace mr::web {

// True when built with the librsvg + cairo headers and both libraries load.
bool PngSupported();

// Renders `svg` at its intrinsic size times `scale` and writes `path`.
Status SvgToPng(std::string_view svg, const std::string& path, double scale = 1.0);

}  // namespace mr::web
