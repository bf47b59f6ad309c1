#include "model/fluid/workload.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

#include "common/file_util.h"
#include "common/rng.h"

namespace mr::model {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> SplitCommas(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    size_t comma = line.find(',', start);
    out.push_back(Trim(line.substr(start, comma == std::string_view::npos ? comma : comma - start)));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

bool ParseDouble(std::string_view s, double& v) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && ptr == s.data() + s.size() && !s.empty();
}

Status LineError(size_t line_no, const std::string& what) {
  return Status::InvalidArgument("line " + std::to_string(line_no) + ": " + what);
}

Result<TandemJob> ParseJobLine(std::string_view line, size_t line_no) {
  std::vector<std::string_view> f = SplitCommas(line);
  if (f.size() != 3) {
    return LineError(line_no, "expected 3 fields arrival,x,y, got " + std::to_string(f.size()));
  }
  TandemJob j;
  double* dst[3] = {&j.arrival, &j.x, &j.y};
  const char* names[3] = {"arrival", "x", "y"};
  for (int k = 0; k < 3; ++k) {
    if (!ParseDouble(f[k], *dst[k]) || !std::isfinite(*dst[k])) {
      return LineError(line_no, std::string("bad number for ") + names[k] + ": '" +
                                    std::string(f[k]) + "'");
    }
  }
  if (j.arrival < 0) return LineError(line_no, "arrival must be >= 0");
  if (j.x <= 0 || j.y <= 0) return LineError(line_no, "sizes x and y must be > 0");
  return j;
}

}  // namespace

Result<std::vector<TandemJob>> ParseWorkloadCsv(std::string_view text) {
  std::vector<TandemJob> jobs;
  bool header_seen = false;
  size_t line_no = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = Trim(text.substr(0, nl));
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    if (!header_seen) {
      std::vector<std::string_view> f = SplitCommas(line);
      if (f.size() != 3 || f[0] != "arrival" || f[1] != "x" || f[2] != "y") {
        return LineError(line_no, "expected header 'arrival,x,y'");
      }
      header_seen = true;
      continue;
    }
    MR_ASSIGN_OR_RETURN(TandemJob job, ParseJobLine(line, line_no));
    jobs.push_back(job);
  }
  if (!header_seen) return Status::InvalidArgument("workload is empty: no 'arrival,x,y' header");
  return jobs;
}

std::string FormatWorkloadCsv(std::span<const TandemJob> jobs) {
  std::string out = "arrival,x,y\n";
  char buf[128];
  for (const TandemJob& j : jobs) {
    // %.17g round-trips a double exactly.
    std::snprintf(buf, sizeof buf, "%.17g,%.17g,%.17g\n", j.arrival, j.x, j.y);
    out += buf;
  }
  return out;
}

Result<std::vector<TandemJob>> LoadWorkload(const std::string& path) {
  if (!PathExists(path)) return Status::NotFound("workload file not found: " + path);
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  Result<std::vector<TandemJob>> jobs = ParseWorkloadCsv(text);
  if (!jobs.ok()) return jobs.status().WithContext(path);
  return jobs;
}

Status SaveWorkload(const std::string& path, std::span<const TandemJob> jobs) {
  return WriteFileAtomically(path, FormatWorkloadCsv(jobs));
}

WorkloadStats ComputeStats(std::span<const TandemJob> jobs) {
  WorkloadStats s;
  s.jobs = jobs.size();
  if (jobs.empty()) return s;
  double n = static_cast<double>(jobs.size());
  double sx = 0, sxx = 0, sy = 0, syy = 0, sr = 0, srr = 0, heavy = 0;
  double first = kInf, last = 0;
  s.min_x = s.min_y = kInf;
  for (const TandemJob& j : jobs) {
    sx += j.x, sxx += j.x * j.x, sy += j.y, syy += j.y * j.y;
    double r = j.y / j.x;
    sr += r, srr += r * r;
    heavy += j.x > j.y ? 1 : 0;
    s.min_x = std::min(s.min_x, j.x), s.max_x = std::max(s.max_x, j.x);
    s.min_y = std::min(s.min_y, j.y), s.max_y = std::max(s.max_y, j.y);
    first = std::min(first, j.arrival), last = std::max(last, j.arrival);
  }
  auto sd = [n](double sum, double sq) { return std::sqrt(std::max(0.0, sq / n - (sum / n) * (sum / n))); };
  s.mean_x = sx / n, s.sd_x = sd(sx, sxx);
  s.mean_y = sy / n, s.sd_y = sd(sy, syy);
  s.sd_ratio = sd(sr, srr);
  s.map_heavy_fraction = heavy / n;
  if (last > first) s.load = (n - 1) / (last - first) * std::max(s.mean_x, s.mean_y);
  return s;
}

std::string FormatStats(const WorkloadStats& s) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "jobs=%zu load=%.3f map: mean=%.3f sd=%.3f max/min=%.3g  shuffle: mean=%.3f "
                "sd=%.3f max/min=%.3g  ratio y/x sd=%.3f  map-heavy=%.1f%%",
                s.jobs, s.load, s.mean_x, s.sd_x, s.max_x / s.min_x, s.mean_y, s.sd_y,
                s.max_y / s.min_y, s.sd_ratio, 100.0 * s.map_heavy_fraction);
  return buf;
}

std::vector<TandemJob> RebalanceCubeRoot(std::span<const TandemJob> jobs) {
  std::vector<TandemJob> out(jobs.begin(), jobs.end());
  double before = 0, after = 0;
  for (TandemJob& j : out) {
    before += j.y;
    j.y = j.x * std::cbrt(j.y / j.x);
    after += j.y;
  }
  if (after > 0) {
    for (TandemJob& j : out) j.y *= before / after;
  }
  return out;
}

std::vector<TandemJob> GenerateLogNormal(int64_t jobs, double load, uint64_t seed) {
  Rng rng(seed);
  const LogNormalParams px = LogNormalFromMoments(1.0, 3.65);
  const LogNormalParams pg = LogNormalFromMoments(1.0, 3.28);
  std::vector<TandemJob> out;
  double t = 0;
  for (int64_t i = 0; i < jobs; ++i) {
    t += rng.Exponential(1.0 / load);
    double x = rng.LogNormal(px.mu, px.sigma);
    out.push_back({t, x, x * rng.LogNormal(pg.mu, pg.sigma)});
  }
  return out;
}

std::vector<TandemJob> GeneratePoisson(int64_t jobs, double rate, double mean_x, double mean_y,
                                       uint64_t seed) {
  Rng rng(seed);
  std::vector<TandemJob> out;
  double t = 0;
  for (int64_t i = 0; i < jobs; ++i) {
    t += rng.Exponential(1.0 / rate);
    double x = rng.Exponential(mean_x);
    out.push_back({t, x, rng.Exponential(mean_y)});
  }
  return out;
}

}  // namespace mr::model
