// Parsing of human-written quantities on command lines: byte sizes ("32MiB",
// "1.5GB", "4096"), rates ("50MB/s", "0" = unlimited) and host:port addresses.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace mr {

// Bytes. Accepts an optional suffix: B, K/KB (1000), KiB (1024), M/MB, MiB, G/GB, GiB.
Result<uint64_t> ParseBytes(std::string_view text);
// Bytes per second: a byte size optionally followed by "/s". "0" or "unlimited" -> 0.
Result<double> ParseRate(std::string_view text);
std::string FormatBytes(double bytes);
// "21.7/35.0 MiB": done and total in the total's unit (FormatBytes's), so the pair reads at
// a glance; "512/900 B" below a KiB.
std::string FormatBytesOf(double done, double total);
// A fraction in [0, 1] as a whole percentage, rounded down so that 100 means done:
// 0.999 -> 99. Every view of a job's phase progress prints it this way.
int PercentFloor(double fraction);
// PercentFloor with a "%": "99%".
std::string FormatPercent(double fraction);
// `v` printed by snprintf with `format` (one double conversion, "%g" by default): the one
// number formatter of tables and messages.
std::string FormatNumber(double v, const char* format = "%g");
// Seconds. Accepts an optional suffix: s, ms, m/min, h, d ("90s", "12h", "7d", "1.5").
Result<double> ParseDuration(std::string_view text);

struct HostPort {
  std::string host;
  uint16_t port = 0;
  std::string ToString() const { return host + ":" + std::to_string(port); }
};
// "host:port" or ":port" (host defaults to 127.0.0.1). Port 0 is allowed (ephemeral).
Result<HostPort> ParseHostPort(std::string_view text);

}  // namespace mr
