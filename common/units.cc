#include "common/units.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

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

Result<uint64_t> ParseBytes(std::string_view text) {
  double v = 0;
  std::string suf;
  MR_RETURN_IF_ERROR(SplitNumber(text, "byte size", &v, &suf));
  double mult = 0;
  if (suf.empty() || suf == "b") mult = 1;
  else if (suf == "k" || suf == "kb") mult = 1e3;
  else if (suf == "kib") mult = 1024.0;
  else if (suf == "m" || suf == "mb") mult = 1e6;
  else if (suf == "mib") mult = 1024.0 * 1024;
  else if (suf == "g" || suf == "gb") mult = 1e9;
  else if (suf == "gib") mult = 1024.0 * 1024 * 1024;
  else if (suf == "t" || suf == "tb") mult = 1e12;
  else if (suf == "tib") mult = 1024.0 * 1024 * 1024 * 1024;
  else return Status::InvalidArgument("unknown unit '" + suf + "' in byte size '" + std::string(text) + "'");
  double bytes = v * mult;
  if (!std::isfinite(bytes) || bytes < 0 || bytes > 9.0e18) {
    return Status::InvalidArgument("byte size '" + std::string(text) + "' out of range");
  }
  return static_cast<uint64_t>(std::llround(bytes));
}

Result<double> ParseDuration(std::string_view text) {
  double v = 0;
  std::string suf;
  MR_RETURN_IF_ERROR(SplitNumber(text, "duration", &v, &suf));
  double mult = 0;
  if (suf.empty() || suf == "s") mult = 1;
  else if (suf == "ms") mult = 1e-3;
  else if (suf == "m" || suf == "min") mult = 60;
  else if (suf == "h") mult = 3600;
  else if (suf == "d") mult = 86400;
  else return Status::InvalidArgument("unknown unit '" + suf + "' in duration '" + std::string(text) + "' (s, ms, m, h, d)");
  double seconds = v * mult;
  if (!std::isfinite(seconds) || seconds > 1e12) {
    return Status::InvalidArgument("duration '" + std::string(text) + "' out of range");
  }
  return seconds;
}

Result<double> ParseRate(std::string_view text) {
  std::string s = Lower(text);
  if (s == "unlimited" || s == "0") return 0.0;
  if (s.size() > 2 && s.substr(s.size() - 2) == "/s") s.resize(s.size() - 2);
  auto r = ParseBytes(s);
  if (!r.ok()) return Status::InvalidArgument("bad rate '" + std::string(text) + "' (e.g. 50MB/s)");
  return static_cast<double>(*r);
}

std::string FormatBytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return buf;
}

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

}  // namespace mr
