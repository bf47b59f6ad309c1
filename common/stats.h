// Small statistics of a sample, written once: the mean, the median, two quantile
// definitions and the squared coefficient of variation. The two quantiles differ on purpose (each caller keeps the numbers it
// always printed; docs/experiments.md, "Statistics"):
//   QuantileLinear       linear interpolation between order statistics (Hyndman & Fan
//                        type 7, numpy's default): the experiment summary's median and
//                        tail, the replay's |error| median and p90, the speculator's
//                        slow-task and slow-node percentiles;
//   QuantileNearestRank  the smallest value with at least a share q of the sample at or
//                        below it (no interpolation): the straggler trace analysis'
//                        sojourn p50/p90/p99 and dispatch-delay p90.
// Every function returns 0 for an empty sample. Pure functions; thread-safe.
#pragma once

#include <span>
#include <vector>

namespace mr {

// Sum in order over the count.
double Mean(std::span<const double> values);

// The middle value, or for an even count (a + b) / 2 of the two middle ones (which can
// differ in the last bit from QuantileLinear(values, 0.5)).
double Median(std::vector<double> values);

// q is clamped to [0, 1]; values need not be sorted (a sorted copy is used).
double QuantileLinear(std::span<const double> values, double q);

// REQUIRES: `sorted` is sorted ascending. q in [0, 1]: rank ceil(q n), clamped to [1, n].
double QuantileNearestRank(std::span<const double> sorted, double q);

// The squared coefficient of variation: the sample variance (n - 1 in the denominator)
// over the squared mean; 0 for fewer than 2 values or a zero mean.
double Scv(std::span<const double> values);

}  // namespace mr
