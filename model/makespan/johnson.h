// Johnson's rule for a batch of MapReduce jobs ("Orchestrating an Ensemble of MapReduce Jobs
// for Minimizing Their Makespan", section 3.2; docs/makespan.md): each job is the pair (m, r)
// of its map and reduce stage durations, the batch a two-stage flow shop whose first machine
// is the map slots and second the reduce slots. Pure functions; thread-safe.
#pragma once

#include <span>
#include <vector>

namespace mr::model {

struct StagePair {
  double map = 0;     // m_i
  double reduce = 0;  // r_i
};

// The paper's Algorithm 1: the jobs sorted by min(m_i, r_i) ascending (ties in input order);
// taken in that order, a job whose smaller stage is its map (m_i <= r_i) goes to the head of
// the schedule, any other to its tail, both ends moving towards the middle. The result lists
// job indices in run order: m <= r jobs by increasing m, then the others by decreasing r.
std::vector<int> JohnsonOrder(std::span<const StagePair> jobs);

// `order` backwards (reverse Johnson: the worst order of the abstraction).
std::vector<int> Reversed(std::span<const int> order);

// 0, 1, ..., n-1: arrival order (FIFO) for a batch listed in arrival order.
std::vector<int> ArrivalOrder(int n);

// The makespan of `order` in the two-stage abstraction: a job's map stage starts when the
// previous job's map stage ends, its reduce stage when both its own map stage and the
// previous reduce stage have ended (the paper's Min and Max strategies). REQUIRES: `order`
// holds valid indices of `jobs`.
double TwoStageMakespan(std::span<const StagePair> jobs, std::span<const int> order);

}  // namespace mr::model
