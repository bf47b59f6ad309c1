// SnapshotBuilder: the plain view of the cluster a Scheduler decides on (scheduler/snapshot.h),
// built from the tracker's state for one scheduling round: every live worker (with the free
// slots of the heartbeating one), every unfinished job's pending maps (minus those the
// blacklist keeps from this worker), fetching and ready reduces, shuffle data and estimate.
#pragma once

#include "master/tracker_state.h"
#include "master/worker_registry.h"
#include "scheduler/snapshot.h"

namespace mr::master {

class SnapshotBuilder {
 public:
  SnapshotBuilder(const TrackerState& state, const WorkerRegistry& registry) : state_(state), registry_(registry) {}

  // The snapshot of a round for the heartbeating worker `only_free`.
  sched::Snapshot Build(WorkerId only_free) const;
  // Whether w has a free slot some unfinished job has a task for: a round runs the policy
  // only then (or to refresh shares), so idle heartbeats stay cheap.
  bool HasAssignableWork(const WorkerRecord& w) const;

 private:
  const TrackerState& state_;
  const WorkerRegistry& registry_;
};

}  // namespace mr::master
