// Separable resource allocation problems (RAP), the moldable relaxation FLEX orders jobs by
// (section 3.2 of "FLEX: A Slot Allocation Scheduling Optimizer for MapReduce Workloads"):
// choose integer s_j with m_j <= s_j <= M_j and sum s_j <= S to minimise sum_j F_j(s_j)
// (minisum) or max_j F_j(s_j) (minimax). F_j(s) may be +infinity (a job given 0 slots never
// finishes). Solvers (docs/flex.md, "The generic order"):
//   SolveConvexMinisum  greedy on marginal gains with a heap, exact when every F_j is convex
//                       (the paper uses Frederickson-Johnson: same optimum, faster in theory);
//   SolvePaperDp        the paper's dynamic programme, O(J S^2), exact for any F_j: the
//                       reference the faster solvers are tested against;
//   SolveBreakpoints    exact for any mix of convex and arbitrary F_j: greedy on the convex
//                       jobs for every budget at once, a knapsack over the other jobs'
//                       breakpoints (the allocations where F_j first reaches a new low), and
//                       the best split of the budget between the two; O(S log J + K S B) for
//                       K non-convex jobs with B breakpoints each;
//   SolveMinimax        the paper's transform of the minimax RAP into a convex minisum one,
//                       solved greedily; exact when every F_j is non-increasing in s.
// Every solver returns an optimum (one of several when ties exist). Pure; thread-safe.
#pragma once

#include <span>
#include <vector>

#include "common/status.h"

namespace mr::flex {

struct RapJob {
  int min = 0;
  int max = 0;
  bool convex = true;  // F_j is convex in s on [min, max] (SolveBreakpoints relies on it)
};

// The summands F_j. Implementations must be pure: the same (job, s) gives the same value.
class RapCost {
 public:
  virtual ~RapCost() = default;
  // F_job(s) for min <= s <= max of that job.
  virtual double F(int job, int s) const = 0;
  // The allocations of `job` at which F first drops below every smaller allocation's value,
  // ascending, starting with min (the only ones an optimum needs). The default scans
  // min..max; a cost that knows its steps (deadlines) overrides it.
  virtual std::vector<int> Breakpoints(int job, int min, int max) const;
};

struct RapSolution {
  std::vector<int> slots;  // s_j per job
  double value = 0;        // the objective at slots
};

// InvalidArgument when slots < 0, a job has min < 0 or max < min, or the minima sum above
// `slots` (normalise first).
Status CheckRap(std::span<const RapJob> jobs, int slots);

// Greedy: start at the minima, repeatedly give a slot to the job whose next slot lowers its
// F the most, while that lowers it. REQUIRES every F_j convex for an exact answer.
Result<RapSolution> SolveConvexMinisum(std::span<const RapJob> jobs, const RapCost& cost,
                                       int slots);
Result<RapSolution> SolvePaperDp(std::span<const RapJob> jobs, const RapCost& cost, int slots);
Result<RapSolution> SolveBreakpoints(std::span<const RapJob> jobs, const RapCost& cost, int slots);
// Minimax via G_j(s) = -sum_{m_j <= i < s} (F_j(i) - floor): convex because F_j does not
// increase, its greedy gives the next slot to the job with the largest F_j. Uses every slot
// a job can take (that never raises the maximum). value = max_j F_j(s_j).
Result<RapSolution> SolveMinimax(std::span<const RapJob> jobs, const RapCost& cost, int slots);

}  // namespace mr::flex
