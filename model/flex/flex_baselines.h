// The schemes FLEX is compared with in the paper's simulation, on a FlexProblem whose jobs
// all arrive at `now`: FIFO (the Malleable Packing Scheme in arrival order with every
// minimum set to 0, maxima kept: the paper's definition) and FAIR (each job its minimum, the
// slack water-filled up to the maxima, recomputed whenever a job finishes). Pure; thread-safe.
#pragma once

#include <span>
#include <vector>

#include "common/status.h"
#include "scheduler/flex/problem.h"

namespace mr::model {

// Shares a_j = clamp(L, min_j, max_j) with the level L chosen so that they sum to
// min(capacity, sum of max_j): equal shares above the minima, never above a maximum (the Fair
// Scheduler's water line with equal weights). REQUIRES: 0 <= min_j <= max_j, sum of min_j <=
// capacity.
std::vector<double> WaterLevelShares(std::span<const double> min, std::span<const double> max,
                                     double capacity);

// Completion time per job (input order = arrival order). InvalidArgument for a bad problem.
Result<std::vector<double>> FifoCompletions(const flex::FlexProblem& problem);
// FAIR's minima are normalised as FLEX's are (flex::NormalizeMinima); shares are real
// numbers of slots (no rounding).
Result<std::vector<double>> FairCompletions(const flex::FlexProblem& problem);

}  // namespace mr::model
