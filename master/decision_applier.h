// DecisionApplier: turns a policy's Decision into a heartbeat reply. Every assignment is
// checked against the tracker's state (a known unfinished job, a pending map or a ready
// reduce on this worker, a free slot, room in the reply) and the ones that fail are
// skipped: a policy can never make the master start a task twice or overfill a worker.
// Also fills the reply with what waits in the worker's outbox and records the shuffle shares.
#pragma once

#include <cstddef>

#include "master/job_lifecycle.h"
#include "master/job_persistence.h"
#include "master/tracker_state.h"
#include "mr.pb.h"
#include "scheduler/snapshot.h"

namespace mr::master {

class DecisionApplier {
 public:
  DecisionApplier(TrackerState& state, JobLifecycle& lifecycle, JobPersistence& persistence)
      : state_(state), lifecycle_(lifecycle), persistence_(persistence) {}

  // Starts the decision's valid assignments for w (attempt ids, slots, store, trace) and
  // adds them to reply within its size budget.
  void Apply(WorkerRecord& w, const sched::Decision& d, proto::HeartbeatReply* reply);
  // Moves w's queued reduce placements and map-output locations into reply as far as the
  // budget allows (the rest wait for the next heartbeat); a placement no message could
  // carry fails its job.
  void SendOutbox(WorkerRecord& w, proto::HeartbeatReply* reply);
  // Records the decision's shuffle shares (clamped to [0, 1]) of every unfinished job.
  void UpdateShares(const sched::Decision& d);

 private:
  // A map whose assignment is too large for any message: the attempt fails, counted, with
  // the reason (its job fails at max_attempts), instead of breaking the worker's connection.
  void FailUnsendableMap(WorkerRecord& w, JobRecord& job, int index, size_t bytes);

  TrackerState& state_;
  JobLifecycle& lifecycle_;
  JobPersistence& persistence_;
};

}  // namespace mr::master
