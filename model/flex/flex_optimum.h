// The optimum of a FLEX instance: by the paper's Lemma 1 (linear speedup, non-decreasing
// penalties) some priority order makes the Malleable Packing Scheme optimal, so the least
// objective over all J! orders is the optimum the simulation divides by.
//   OptimumByEnumeration packs every permutation: the plain reference, J! packings.
//   OptimumBySearch branches only where the order matters: an interval's packing depends
//   only on the prefix of the order that receives slack, so the search extends the order one
//   job at a time while slack is left and otherwise runs the packing to the next finish; it
//   prunes a branch when a lower bound (every unfinished job at its maximum from now on, the
//   last one no earlier than all remaining work spread over the slots it can use) cannot beat
//   the best schedule found. Exact: it returns the enumeration's value (tested for J <= 7).
// The objective is flex::CombinedObjective of the jobs' own metrics. Minima are normalised
// first as PackMalleable does. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "scheduler/flex/problem.h"

namespace mr::model {

struct FlexOptimum {
  double value = 0;
  std::vector<int> order;  // an order whose packing reaches `value`
  int64_t packings = 0;    // enumeration: orders packed; search: nodes visited
};

// InvalidArgument for a bad problem or more than `max_jobs` jobs (enumeration: 10! packings
// take minutes).
Result<FlexOptimum> OptimumByEnumeration(const flex::FlexProblem& problem, int max_jobs = 10);
// `incumbent` (e.g. FLEX's order) seeds the bound; empty: none. Same errors as above.
Result<FlexOptimum> OptimumBySearch(const flex::FlexProblem& problem,
                                    const std::vector<int>& incumbent = {}, int max_jobs = 12);

}  // namespace mr::model
