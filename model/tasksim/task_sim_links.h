// The task-level simulator's shuffle links (internal): each worker's egress cap
// split among the jobs with output waiting there, as its ShareLimiter does
// (docs/shuffle.md). Rates are constant between events, so the links report when
// the next backlog drains and move bytes exactly over a step.
#pragma once

#include <vector>

#include "model/tasksim/task_sim_state.h"

namespace mr::model::tasksim {

class ShuffleLinks {
 public:
  // Recomputes every flow from the jobs' backlogs and shares. Jobs with data waiting
  // on a worker and a positive share split its cap in proportion to their shares;
  // only when none is waiting do the share-0 jobs split it equally. Data moves only
  // once the job's reducers are placed (slow start).
  void Compute(const SimState& state);
  // The earliest time >= now at which some flow's backlog drains (infinity if none).
  double NextDrain(const SimState& state) const;
  // Moves dt seconds of every flow; returns the largest link load (sum of rates / cap).
  double Advance(SimState& state, double dt) const;
  // Bytes/s all flows carry now.
  double TotalRate() const;

 private:
  struct Flow {
    size_t job;
    int worker;
    double rate;
  };
  std::vector<Flow> flows_;
};

}  // namespace mr::model::tasksim
