#include "web/markup.h"

#include <cmath>
#include <cstdio>

#include "common/markup_escape.h"

namespace mr::web {

std::string Escape(std::string_view text) { return MarkupEscape(text); }

std::string Fixed(double value, int digits) {
  if (!std::isfinite(value)) value = 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, value);
  std::string s = buf;
  if (s == "-0" || s.find_first_not_of("-0.") == std::string::npos) s.erase(0, s[0] == '-' ? 1 : 0);
  return s;
}

std::string FormatSeconds(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "-";
  if (seconds < 1) return Fixed(seconds, 3) + " s";
  if (seconds < 100) return Fixed(seconds, 2) + " s";
  if (seconds < 600) return Fixed(seconds, 0) + " s";
  long s = std::lround(seconds);
  return std::to_string(s / 60) + " min " + std::to_string(s % 60) + " s";
}

}  // namespace mr::web
