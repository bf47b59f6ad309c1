#include "model/mst/dtd.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

namespace mr::model {

Status Dtd::Validate() const {
  if (!std::isfinite(offset)) return Status::InvalidArgument("delayed tail: offset T must be finite");
  if (!(std::isfinite(rate) && rate > 0))
    return Status::InvalidArgument("delayed tail: rate DELTA must be finite and > 0");
  if (tail == Tail::kPareto && !(std::isfinite(shape) && shape > 1))
    return Status::InvalidArgument("delayed tail: pareto shape ALPHA must be finite and > 1");
  return Status::Ok();
}

double Dtd::Survival(double t) const {
  if (t <= offset) return 1.0;
  const double x = t - offset;
  if (tail == Tail::kExp) return std::exp(-rate * x);
  return std::pow(1.0 + rate * x / (shape - 1.0), -shape);
}

double Dtd::Cdf(double t) const {
  if (t <= offset) return 0.0;
  const double x = t - offset;
  if (tail == Tail::kExp) return -std::expm1(-rate * x);
  return -std::expm1(-shape * std::log1p(rate * x / (shape - 1.0)));
}

double Dtd::Sample(Rng& rng) const {
  if (tail == Tail::kExp) return offset + rng.Exponential(1.0 / rate);
  // Inversion: P(X - T > x) = (1 + x/s)^-alpha = U  =>  x = s (U^{-1/alpha} - 1).
  const double scale = (shape - 1.0) / rate;
  return offset + scale * std::expm1(-std::log(rng.Uniform()) / shape);
}

std::string Dtd::ToString() const {
  char buf[96];
  if (tail == Tail::kExp) {
    std::snprintf(buf, sizeof buf, "exp:%g,%g", offset, rate);
  } else {
    std::snprintf(buf, sizeof buf, "pareto:%g,%g,%g", offset, rate, shape);
  }
  return buf;
}

namespace {

// Comma-separated finite numbers; false on any malformed field.
bool ParseNumbers(std::string_view s, std::vector<double>& out) {
  while (true) {
    const size_t comma = s.find(',');
    const std::string_view field = s.substr(0, comma);
    double v = 0;
    auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
    if (field.empty() || ec != std::errc() || ptr != field.data() + field.size() || !std::isfinite(v))
      return false;
    out.push_back(v);
    if (comma == std::string_view::npos) return true;
    s.remove_prefix(comma + 1);
  }
}

}  // namespace

Result<Dtd> ParseDtd(std::string_view text) {
  const Status bad = Status::InvalidArgument("delayed tail '" + std::string(text) +
                                             "': expected exp:T,DELTA or pareto:T,DELTA[,ALPHA]");
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) return bad;
  const std::string_view name = text.substr(0, colon);
  std::vector<double> v;
  if (!ParseNumbers(text.substr(colon + 1), v)) return bad;
  Dtd d;
  if (name == "exp" && v.size() == 2) {
    d.tail = Dtd::Tail::kExp;
  } else if (name == "pareto" && (v.size() == 2 || v.size() == 3)) {
    d.tail = Dtd::Tail::kPareto;
    if (v.size() == 3) d.shape = v[2];
  } else {
    return bad;
  }
  d.offset = v[0];
  d.rate = v[1];
  if (!(d.offset >= 0)) return Status::InvalidArgument("delayed tail '" + std::string(text) + "': offset T must be >= 0");
  Status st = d.Validate();
  if (!st.ok()) return st.WithContext("'" + std::string(text) + "'");
  return d;
}

}  // namespace mr::model
