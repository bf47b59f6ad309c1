// The task-level simulator's shuffle links (internal). By default each worker's egress cap
// split among the jobs with output waiting there, as its ShareLimiter does
// (docs/shuffle.md); receivers are unlimited. With ClusterSpec::receiver_links every worker's
// link also limits what it receives, and the rates are the weighted max-min fair allocation
// (model/tasksim/max_min_fair.h) of every worker's egress and ingress among the flows (job, source,
// receiver) (docs/model.md, "Receivers' links"). Rates are constant between events, so the
// links report when the next backlog drains and move bytes exactly over a step.
#pragma once

#include <vector>

#include "model/tasksim/task_sim_state.h"

namespace mr::model::tasksim {

class ShuffleLinks {
 public:
  explicit ShuffleLinks(bool receiver_links = false) : receiver_links_(receiver_links) {}
  // Recomputes every flow from the jobs' backlogs and shares. Jobs with data waiting
  // on a worker and a positive share split its cap in proportion to their shares;
  // only when none is waiting do the share-0 jobs split it equally. With receiver links:
  // the positive-share flows first, by max-min fairness over egress and ingress; then the
  // share-0 flows on what is left, each receiver that a positive-share flow enters closed to
  // them (the reducers' rule, docs/shuffle.md). Data moves only once the job's reducers are
  // placed (slow start).
  void Compute(const SimState& state);
  // The earliest time >= now at which some flow's backlog drains (infinity if none).
  double NextDrain(const SimState& state) const;
  // Moves dt seconds of every flow; returns the largest link load (sum of rates / cap, over
  // the egress and, with receiver links, the ingress of every worker).
  double Advance(SimState& state, double dt) const;
  // Bytes/s all flows carry now.
  double TotalRate() const;

 private:
  struct Flow {
    size_t job;
    int worker;         // the source
    int receiver = -1;  // with receiver links: the reducers' worker (its pair backlog)
    double rate = 0;
  };
  void ComputeOneSided(const SimState& state);
  void ComputeTwoSided(const SimState& state);
  // The bytes the flow drains: the source's backlog, or the pair's with receiver links.
  static double& Backlog(SimJob& job, const Flow& f);
  static double Backlog(const SimJob& job, const Flow& f);

  bool receiver_links_;
  std::vector<Flow> flows_;
};

}  // namespace mr::model::tasksim
