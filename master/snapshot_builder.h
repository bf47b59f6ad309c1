// SnapshotBuilder: the plain view of the cluster a Scheduler decides on (scheduler/snapshot.h),
// built from the tracker's state for one scheduling round: every live worker (free slots,
// measured map task rate, queue length), every unfinished job's parameters, pending maps
// (minus those the blacklist keeps from this worker), queued maps, running attempts,
// fetching and ready reduces, shuffle data and estimate.
#pragma once

#include "master/tracker_state.h"
#include "master/worker_registry.h"
#include "scheduler/snapshot.h"

namespace mr::master {

class SnapshotBuilder {
 public:
  SnapshotBuilder(const TrackerState& state, const WorkerRegistry& registry) : state_(state), registry_(registry) {}

  // The snapshot of a round for the heartbeating worker `only_free`: its free slots, or with
  // every_worker_free (a policy of scope kCluster) every live worker's. Pending maps queued
  // at a worker are in JobView::queued_maps, not pending_maps; every running attempt (with
  // its backup) is in JobView::running; JobView::params come from the job's spec
  // (jobs::JobParamsFromSpec).
  sched::Snapshot Build(WorkerId only_free, bool every_worker_free = false) const;
  // Whether w has a free slot some unfinished job has a task for: a round runs the policy
  // only then (or to refresh shares), so idle heartbeats stay cheap.
  bool HasAssignableWork(const WorkerRecord& w) const;

 private:
  const TrackerState& state_;
  const WorkerRegistry& registry_;
};

}  // namespace mr::master
