// SvgToPng: rasterises an SVG document to a PNG file in-process with librsvg
// and cairo. When mrlab was built without them (no librsvg-2.0/cairo found by
// pkg-config), it returns FailedPrecondition saying so. Thread-compatible.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace mr::web {

// True when built with librsvg + cairo.
bool PngSupported();

// Renders `svg` at its intrinsic size times `scale` and writes `path`.
Status SvgToPng(std::string_view svg, const std::string& path, double scale = 1.0);

}  // namespace mr::web
