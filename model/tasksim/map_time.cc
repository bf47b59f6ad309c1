#include "model/tasksim/map_time.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

namespace mr::model {

double MapTimeDist::Mean() const {
  switch (kind) {
    case Kind::kDelayedExp:
      return offset + 1.0 / rate;
    case Kind::kDelayedPareto:
      return alpha * offset / (alpha - 1.0);
    default:
      return 1.0;
  }
}

Status MapTimeDist::Validate() const {
  auto finite = [](double v) { return std::isfinite(v); };
  switch (kind) {
    case Kind::kClusterDefault:
    case Kind::kFixed:
      return Status::Ok();
    case Kind::kLogNormal:
      if (!(finite(cv) && cv >= 0 && cv <= 10))
        return Status::InvalidArgument("log-normal map time: cv must be in [0, 10]");
      return Status::Ok();
    case Kind::kDelayedExp:
      if (!(finite(offset) && offset >= 0 && finite(rate) && rate > 0))
        return Status::InvalidArgument("exp map time: need offset T >= 0 and rate DELTA > 0");
      return Status::Ok();
    case Kind::kDelayedPareto:
      if (!(finite(offset) && offset > 0 && finite(alpha) && alpha > 1))
        return Status::InvalidArgument("pareto map time: need offset T > 0 and shape ALPHA > 1");
      return Status::Ok();
  }
  return Status::InvalidArgument("unknown map time kind");
}

double MapTimeDist::Sample(Rng& rng) const {
  switch (kind) {
    case Kind::kLogNormal: {
      if (cv <= 0) return 1.0;
      const LogNormalParams p = LogNormalFromMoments(1.0, cv);
      return rng.LogNormal(p.mu, p.sigma);
    }
    case Kind::kDelayedExp:
      return offset + rng.Exponential(1.0 / rate);
    case Kind::kDelayedPareto:
      // Inversion: P(X > x) = (T/x)^alpha for x >= T, and U is uniform on (0, 1).
      return offset * std::pow(rng.Uniform(), -1.0 / alpha);
    default:
      return 1.0;
  }
}

std::string MapTimeDist::ToString() const {
  char buf[96];
  switch (kind) {
    case Kind::kClusterDefault:
      return "cluster-default";
    case Kind::kFixed:
      return "fixed";
    case Kind::kLogNormal:
      std::snprintf(buf, sizeof buf, "lognormal:%g", cv);
      return buf;
    case Kind::kDelayedExp:
      std::snprintf(buf, sizeof buf, "exp:%g,%g", offset, rate);
      return buf;
    case Kind::kDelayedPareto:
      std::snprintf(buf, sizeof buf, "pareto:%g,%g", offset, alpha);
      return buf;
  }
  return "?";
}

namespace {

// Comma-separated finite numbers; false on any malformed field.
bool ParseNumbers(std::string_view s, std::vector<double>& out) {
  while (true) {
    size_t comma = s.find(',');
    std::string_view field = s.substr(0, comma);
    double v = 0;
    auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
    if (field.empty() || ec != std::errc() || ptr != field.data() + field.size() ||
        !std::isfinite(v)) {
      return false;
    }
    out.push_back(v);
    if (comma == std::string_view::npos) return true;
    s.remove_prefix(comma + 1);
  }
}

}  // namespace

Result<MapTimeDist> ParseMapTimeDist(std::string_view text) {
  const Status bad = Status::InvalidArgument(
      "map time '" + std::string(text) +
      "': expected fixed, lognormal:CV, exp:T,DELTA or pareto:T,ALPHA");
  MapTimeDist d;
  if (text == "fixed") {
    d.kind = MapTimeDist::Kind::kFixed;
    return d;
  }
  size_t colon = text.find(':');
  if (colon == std::string_view::npos) return bad;
  std::string_view name = text.substr(0, colon);
  std::vector<double> v;
  if (!ParseNumbers(text.substr(colon + 1), v)) return bad;
  if (name == "lognormal" && v.size() == 1) {
    d.kind = MapTimeDist::Kind::kLogNormal;
    d.cv = v[0];
  } else if (name == "exp" && v.size() == 2) {
    d.kind = MapTimeDist::Kind::kDelayedExp;
    d.offset = v[0];
    d.rate = v[1];
  } else if (name == "pareto" && v.size() == 2) {
    d.kind = MapTimeDist::Kind::kDelayedPareto;
    d.offset = v[0];
    d.alpha = v[1];
  } else {
    return bad;
  }
  MR_RETURN_IF_ERROR(d.Validate());
  return d;
}

}  // namespace mr::model
