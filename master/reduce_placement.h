// ReducePlacer: where a job's reducers run and what they learn. At slow-start each unplaced
// reducer goes to the least loaded worker with reduce (or unified) slots that is not
// blacklisted for the job and that the policy lets the job run on (Scheduler::MayRunOn: a
// capacity queue bound to a label), and is sent a placement so it starts fetching; every done
// map's output location is then queued for each worker hosting the job's reducers.
#pragma once

#include "master/job.h"
#include "master/tracker_state.h"
#include "master/worker_registry.h"
#include "scheduler/scheduler.h"

namespace mr::master {

class ReducePlacer {
 public:
  // policy: the master's (outlives the placer).
  ReducePlacer(TrackerState& state, const WorkerRegistry& registry, const sched::Scheduler& policy)
      : state_(state), registry_(registry), policy_(policy) {}

  // Places job's unplaced reducers once slow-start is reached (nothing if no worker can
  // host them yet, e.g. no worker carries its queue's label: retried when one registers). Among the least loaded hosts, `prefer` (if
  // it is one) gets the reducer; where one failed last comes last. Having placed any, it
  // queues the done maps' locations for their hosts (QueueLocations); with every reducer
  // already placed it does nothing, in time independent of the cluster's size.
  void PlaceReduces(JobRecord& job, WorkerId prefer = 0);
  // Queues, for every worker hosting job's reducers, the done maps' locations it has not
  // been sent (sent with its next heartbeat). Hosts x maps: for placements and recovery.
  void QueueLocations(JobRecord& job);
  // The same for one map that just completed: hosts only. What a map's completion needs
  // (a heartbeat's path; QueueLocations there cost hosts x maps per map, issue 29).
  void QueueLocation(JobRecord& job, size_t map);

 private:
  TrackerState& state_;
  const WorkerRegistry& registry_;
  const sched::Scheduler& policy_;
};

}  // namespace mr::master
