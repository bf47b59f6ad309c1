// Small helpers for writing HTML and SVG text: escaping and fixed-precision
// numbers (so rendered output is byte-for-byte deterministic). Thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace mr::web {

// Escapes &, <, >, " and ' for use in element text and attribute values.
std::string Escape(std::string_view text);

// Fixed-point number with `digits` decimals, trailing zeros kept ("%.*f").
std::string Fixed(double value, int digits = 2);

// Seconds for an axis or a table: "0.25 s", "12.3 s", "2 min 5 s".
std::string FormatSeconds(double seconds);

}  // namespace mr::web
