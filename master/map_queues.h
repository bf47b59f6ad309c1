// MapQueues: per-worker queues of pending maps (a policy's Decision::queue: dispatch at
// arrival, the straggling-mappers paper's model of a mapper node as a queue). A queued map
// stays pending but only its worker may run it; it is listed in JobView::queued_maps, not
// pending_maps. A queue returns to pending when its worker is lost (JobLifecycle) or
// blacklisted for the job (ReleaseBlacklisted, before every round).
#pragma once

#include "master/tracker_state.h"
#include "master/worker_registry.h"
#include "scheduler/snapshot.h"

namespace mr::master {

class MapQueues {
 public:
  MapQueues(TrackerState& state, const WorkerRegistry& registry) : state_(state), registry_(registry) {}

  // Puts a pending (or queued elsewhere) map into q.worker's queue. Returns false, changing
  // nothing, for an unknown or finished job, a map that is not pending, or a worker that is
  // not registered or is blacklisted for the job's maps.
  bool Queue(const sched::QueueMap& q);
  // Maps queued at a worker now blacklisted for their job become pending (any worker).
  void ReleaseBlacklisted();

 private:
  TrackerState& state_;
  const WorkerRegistry& registry_;
};

}  // namespace mr::master
