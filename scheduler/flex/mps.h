// The Malleable Packing Scheme of FLEX (the paper's Fig. 3): given a priority order of jobs
// with minimum and maximum slots and remaining work (linear speedup: work w on s slots takes
// w/s), every interval gives each unfinished job its minimum, hands the slack to the jobs in
// priority order up to their maxima, runs until the first job finishes, and repeats without
// it. Edge cases (docs/flex.md, "Malleable packing"):
//   - minima summing to more than S are normalised once, before packing (NormalizeMinima);
//   - a job with no remaining work is complete at the start: no slots, no interval;
//   - a job may hold 0 slots in an interval (minimum 0, no slack reached it): no progress;
//   - jobs finishing at the same instant (within 1e-9 of their work) leave together, so no
//     interval has zero length; the paper's "ties in priority order" gives the same schedule;
//   - slack beyond every unfinished job's maximum stays idle.
// The step functions (StartPack, FillByPriority, Advance) are public so that a search over
// orders (model/flex) branches on exactly the arithmetic PackMalleable uses. Pure functions;
// thread-safe.
#pragma once

#include <span>
#include <vector>

#include "common/status.h"

namespace mr::flex {

struct PackJob {
  double work = 0;  // remaining work in slot-seconds (slot x time unit), >= 0
  int min = 0;      // m_j >= 0
  int max = 0;      // M_j >= m_j, and >= 1 when work > 0
};

// One interval [start, end) of a malleable schedule; slots[j] is job j's allocation (input
// index), 0 for jobs finished or starved.
struct Interval {
  double start = 0;
  double end = 0;
  std::vector<int> slots;
};

struct PackedSchedule {
  std::vector<Interval> intervals;  // consecutive, each of positive length
  std::vector<double> completion;   // per job (input index)
};

// Ok, or InvalidArgument naming the job: slots >= 1; per job finite work >= 0,
// 0 <= min <= max, max >= 1 when work > 0.
Status CheckPackJobs(int slots, std::span<const PackJob> jobs);

// The minima scaled to fit `slots` when their sum exceeds it, as the Fair Scheduler scales
// minimum shares: m_j * S / sum m, rounded down, the slots left over going one each to the
// largest fractional parts (ties to the lower index). Returned unchanged when the sum fits.
// REQUIRES: every minimum >= 0, slots >= 0.
std::vector<int> NormalizeMinima(std::span<const int> minima, int slots);

// Packs `jobs` in priority `order` (a permutation of 0..n-1, highest priority first) on
// `slots` slots from time `start`. Normalises the minima first. InvalidArgument for bad
// jobs (CheckPackJobs) or an order that is not a permutation.
Result<PackedSchedule> PackMalleable(int slots, double start, std::span<const PackJob> jobs,
                                     std::span<const int> order);

// ---- Step functions of the packing (callers validate and normalise first) ----

struct PackState {
  double time = 0;
  std::vector<double> remaining;   // work left per job
  std::vector<double> completion;  // +infinity until the job finishes
  int unfinished = 0;
  bool Finished(int job) const;
};

// Jobs with zero work finish at `start`.
PackState StartPack(std::span<const PackJob> jobs, double start);

// Writes into alloc (size n) every unfinished job's minimum and 0 for finished jobs, then
// gives the slack, slots - sum of those minima, to the unfinished jobs of `priority` in that
// order, each up to its maximum. Returns the slack left (> 0 only when `priority` ran out:
// a prefix of the full order, or every job at its maximum). REQUIRES: minima sum <= slots.
int FillByPriority(std::span<const PackJob> jobs, const PackState& state,
                   std::span<const int> priority, int slots, std::span<int> alloc);

// Runs the unfinished jobs at rates `rate` (slots; any non-negative reals) until the first
// finishes; marks it and every job within 1e-9 of its work of finishing as finished at the
// new time. Returns the new time; Internal if no unfinished job has a positive rate.
Result<double> Advance(std::span<const PackJob> jobs, std::span<const double> rate,
                       PackState* state);

}  // namespace mr::flex
