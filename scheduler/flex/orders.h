// Priority orders for the Malleable Packing Scheme: the generic order (the completion order
// of the moldable RAP's optimum) and the static metric-specific orders. The paper omits its
// specific schemes "due to lack of space"; the ones here are this repository's choice
// (docs/flex.md, "Metric-specific orders"). Pure; thread-safe.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "scheduler/flex/metrics.h"
#include "scheduler/flex/problem.h"
#include "scheduler/flex/rap.h"

namespace mr::flex {

// How the generic order solves a minisum RAP that has step summands (tardy jobs, SLA).
enum class StepSolver {
  kBreakpoints,  // exact, O(S log J + K S B): the default
  kPaperDp,      // exact, the paper's O(J S^2) dynamic programme
};

// F_j(s) = the job's penalty when it finishes at now + work_j / s (never when s = 0), as the
// RAP solvers read it; Breakpoints() derived from the deadlines for step metrics.
class MetricCost : public RapCost {
 public:
  // `jobs` is borrowed and must outlive the cost. origin as in Penalty().
  MetricCost(std::span<const FlexJob> jobs, double now, double origin);
  double F(int job, int s) const override;
  std::vector<int> Breakpoints(int job, int min, int max) const override;

 private:
  std::span<const FlexJob> jobs_;
  double now_;
  double origin_;
};

// The name a trace or a status page shows for an order: "generic-rap", "shortest-work", ...
std::string_view OrderName(OrderKind kind);
constexpr std::string_view kGenericOrderName = "generic-rap";

// The static order `kind` (not kEdfTardyLast, not kNone: those return the input order):
// ties broken by the lower index. A job without a deadline sorts after those with one.
std::vector<int> StaticOrder(OrderKind kind, std::span<const FlexJob> jobs);

// The generic scheme's moldable schedule: solves the RAP on `minima` (already normalised) and
// returns each job's completion now + work/s_j under its optimum (now for zero-work jobs,
// +infinity for a job left with 0 slots). Which RAP: one minimax metric shared by every job
// -> SolveMinimax; every job minisum with convex summands -> SolveConvexMinisum; otherwise the
// minisum RAP of each job's own penalty (SolveBreakpoints or SolvePaperDp per `step_solver`) -
// for epochs mixing minimax groups this is a heuristic (docs/flex.md, "Mixed metrics"). Slots
// the optimum leaves unused go, one at a time, where they shorten a completion the most.
Result<std::vector<double>> MoldableCompletions(int slots, double now, double origin,
                                                std::span<const FlexJob> jobs,
                                                std::span<const int> minima,
                                                StepSolver step_solver);
// The generic order: by moldable completion, ties to the lower index.
std::vector<int> CompletionOrder(std::span<const double> completion);
// OrderKind::kLawler, Lawler's rule for minimax objectives adapted to a pool of slots: while
// jobs remain, the one whose penalty (its own metric) is least if it finishes last, at
// now + remaining work / min(S, sum of remaining maxima), goes last; ties to the least
// lateness w(C - d) (tardiness clips it at 0), then to the lower index.
// O(J^2) penalty evaluations.
std::vector<int> LawlerOrder(std::span<const FlexJob> jobs, int slots, double now, double origin);
// OrderKind::kRapDeadlines: first the jobs whose moldable completion meets one of their
// (pseudo-)deadlines, by the earliest deadline met; then the others by moldable completion.
std::vector<int> MetDeadlineOrder(std::span<const FlexJob> jobs,
                                  std::span<const double> completion);

}  // namespace mr::flex
