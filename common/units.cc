#include "common/units.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <span>

namespace mr {

namespace {
std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A leading decimal number and the rest: "1.5GiB" -> 1.5, "gib". `what` names the quantity
// in errors.
Status SplitNumber(std::string_view text, const char* what, double* value, std::string* suffix) {
  std::string s = Lower(text);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  if (s.empty()) return Status::InvalidArgument(std::string("empty ") + what);
  size_t i = 0;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
  if (i == 0) {
    return Status::InvalidArgument(std::string(what) + " '" + std::string(text) + "' does not start with a number");
  }
  auto [p, ec] = std::from_chars(s.data(), s.data() + i, *value);
  if (ec != std::errc() || p != s.data() + i) {
    return Status::InvalidArgument(std::string("bad number in ") + what + " '" + std::string(text) + "'");
  }
  *suffix = s.substr(i);
  return Status::Ok();
}
}  // namespace

namespace {
struct Unit {
  std::string_view name;  // lower case; "" = no suffix
  double scale;
};
constexpr Unit kByteUnits[] = {
    {"", 1},     {"b", 1},        {"k", 1e3},         {"kb", 1e3},        {"kib", 1024.0},
    {"m", 1e6},  {"mb", 1e6},     {"mib", 1048576.0}, {"g", 1e9},         {"gb", 1e9},
    {"gib", 1073741824.0},        {"t", 1e12},        {"tb", 1e12},       {"tib", 1099511627776.0}};
constexpr Unit kDurationUnits[] = {{"", 1},      {"s", 1},     {"ms", 1e-3}, {"m", 60},
                                   {"min", 60}, {"h", 3600}, {"d", 86400}};

// A number with an optional unit of `units`, scaled, in [0, max]. `what` and `hint` (the
// units, for the error) name the quantity in errors.
Result<double> ParseScaled(std::string_view text, const char* what, std::span<const Unit> units,
                           std::string_view hint, double max) {
  double v = 0;
  std::string suf;
  MR_RETURN_IF_ERROR(SplitNumber(text, what, &v, &suf));
  const Unit* unit = nullptr;
  for (const Unit& u : units) {
    if (u.name == suf) unit = &u;
  }
  if (unit == nullptr) {
    return Status::InvalidArgument("unknown unit '" + suf + "' in " + what + " '" + std::string(text) + "'" +
                                   std::string(hint));
  }
  const double scaled = v * unit->scale;
  if (!std::isfinite(scaled) || scaled < 0 || scaled > max) {
    return Status::InvalidArgument(std::string(what) + " '" + std::string(text) + "' out of range");
  }
  return scaled;
}
}  // namespace

Result<uint64_t> ParseBytes(std::string_view text) {
  MR_ASSIGN_OR_RETURN(double bytes, ParseScaled(text, "byte size", kByteUnits, "", 9.0e18));
  return static_cast<uint64_t>(std::llround(bytes));
}

Result<double> ParseDuration(std::string_view text) {
  return ParseScaled(text, "duration", kDurationUnits, " (s, ms, m, h, d)", 1e12);
}

Result<double> ParseRate(std::string_view text) {
  std::string s = Lower(text);
  if (s == "unlimited" || s == "0") return 0.0;
  if (s.size() > 2 && s.substr(s.size() - 2) == "/s") s.resize(s.size() - 2);
  auto r = ParseBytes(s);
  if (!r.ok()) return Status::InvalidArgument("bad rate '" + std::string(text) + "' (e.g. 50MB/s)");
  return static_cast<double>(*r);
}

namespace {
constexpr const char* kByteUnitNames[] = {"B", "KiB", "MiB", "GiB", "TiB"};
// The binary unit FormatBytes prints `bytes` in: its index in kByteUnitNames and its size.
int ByteUnitOf(double bytes, double* scale) {
  int u = 0;
  *scale = 1;
  while (bytes / *scale >= 1024 && u < 4) {
    *scale *= 1024;
    ++u;
  }
  return u;
}
}  // namespace

std::string FormatBytes(double bytes) {
  double scale = 1;
  const int u = ByteUnitOf(bytes, &scale);
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes / scale, kByteUnitNames[u]);
  return buf;
}

std::string FormatBytesOf(double done, double total) {
  double scale = 1;
  const int u = ByteUnitOf(total, &scale);
  char buf[64];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f/%.0f %s" : "%.1f/%.1f %s", done / scale, total / scale,
                kByteUnitNames[u]);
  return buf;
}

int PercentFloor(double fraction) {
  if (!std::isfinite(fraction)) fraction = 0;
  // The epsilon keeps 0.29 (stored as 0.28999...) at 29%.
  return static_cast<int>(std::floor(std::clamp(fraction, 0.0, 1.0) * 100 + 1e-9));
}

std::string FormatPercent(double fraction) { return std::to_string(PercentFloor(fraction)) + "%"; }

Result<HostPort> ParseHostPort(std::string_view text) {
  size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) {
    return Status::InvalidArgument("address '" + std::string(text) + "' is not host:port");
  }
  HostPort hp;
  hp.host = std::string(text.substr(0, colon));
  if (hp.host.empty()) hp.host = "127.0.0.1";
  if (hp.host.size() > 2 && hp.host.front() == '[' && hp.host.back() == ']') {
    hp.host = hp.host.substr(1, hp.host.size() - 2);
  }
  std::string_view port = text.substr(colon + 1);
  unsigned v = 0;
  auto [p, ec] = std::from_chars(port.data(), port.data() + port.size(), v);
  if (port.empty() || ec != std::errc() || p != port.data() + port.size() || v > 65535) {
    return Status::InvalidArgument("bad port in address '" + std::string(text) + "'");
  }
  hp.port = static_cast<uint16_t>(v);
  return hp;
}

std::string FormatNumber(double v, const char* format) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace mr
