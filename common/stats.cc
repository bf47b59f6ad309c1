#include "common/stats.h"

#include <algorithm>
#include <cmath>

namespace mr {

double Mean(std::span<const double> values) {
  if (values.empty()) return 0;
  double sum = 0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double QuantileLinear(std::span<const double> values, double q) {
  if (values.empty()) return 0;
  // Selection, not a sort: the two order statistics around pos are all it needs (the
  // speculator asks for one per heartbeat over every running attempt; issue 29).
  std::vector<double> v(values.begin(), values.end());
  const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
  const double at_lo = v[lo];
  if (lo + 1 >= v.size()) return at_lo;
  // Everything after lo is >= v[lo]: the next order statistic is their minimum.
  const double at_hi = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo) + 1, v.end());
  return at_lo + (pos - static_cast<double>(lo)) * (at_hi - at_lo);
}

double QuantileNearestRank(std::span<const double> sorted, double q) {
  if (sorted.empty()) return 0;
  const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

double Scv(std::span<const double> values) {
  const double m = Mean(values);
  if (values.size() < 2 || m == 0) return 0;
  double ss = 0;
  for (double x : values) ss += (x - m) * (x - m);
  return ss / static_cast<double>(values.size() - 1) / (m * m);
}

}  // namespace mr
