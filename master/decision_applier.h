// DecisionApplier: turns a policy's Decision into a heartbeat reply. First its queue entries
// (MapQueues) and kills (AttemptKiller), then its assignments. Every one is checked against
// the tracker's state (a known unfinished job; a pending map, or one queued at this worker;
// for a backup, a running map with no backup on another worker; a ready reduce on this
// worker; a free slot; room in the reply) and the ones that fail are skipped, as are a
// policy's invalid queue entries and kills: a policy can never make the master start a task
// twice or overfill a worker. With a policy of scope kCluster, assignments to other workers
// are reserved at once (slot, attempt) and delivered with their next heartbeat. Also fills
// the reply with what waits in the worker's outbox and records the shuffle shares.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "master/attempt_kills.h"
#include "master/job_lifecycle.h"
#include "master/job_persistence.h"
#include "master/map_queues.h"
#include "master/tracker_state.h"
#include "mr.pb.h"
#include "scheduler/snapshot.h"

namespace mr::master {

class DecisionApplier {
 public:
  DecisionApplier(TrackerState& state, JobLifecycle& lifecycle, JobPersistence& persistence, MapQueues& queues,
                  AttemptKiller& killer)
      : state_(state), lifecycle_(lifecycle), persistence_(persistence), queues_(queues), killer_(killer) {}

  // Applies the decision of w's round: queues, kills, then the valid assignments (attempt
  // ids, slots, store, trace), w's within reply's size budget; others' (cluster_scope
  // only) into their outbox.
  void Apply(WorkerRecord& w, const sched::Decision& d, bool cluster_scope, proto::HeartbeatReply* reply);
  // Moves the kills waiting for w into reply.
  void SendKills(WorkerRecord& w, proto::HeartbeatReply* reply);
  // Moves w's queued reduce placements and map-output locations into reply as far as the
  // budget allows (the rest wait for the next heartbeat); a placement no message could
  // carry fails its job.
  void SendOutbox(WorkerRecord& w, proto::HeartbeatReply* reply);
  // Records the decision's shuffle shares (clamped to [0, 1]) of every unfinished job.
  void UpdateShares(const sched::Decision& d);
  // Keeps the decision's allocations (an allocating policy's, at an epoch) on their jobs and
  // traces each (event "allocation").
  void RecordAllocations(const sched::Decision& d);

 private:
  // A map whose assignment is too large for any message: the attempt fails, counted, with
  // the reason (its job fails at max_attempts), instead of breaking the worker's connection.
  void FailUnsendableMap(WorkerRecord& w, JobRecord& job, int index, size_t bytes);

  // One Apply call.
  struct Round {
    WorkerRecord& heartbeating;
    proto::HeartbeatReply* reply;
    size_t budget;                              // left in reply
    double now;
    std::map<uint64_t, std::vector<std::string>> per_job;  // per job, the tasks of its `decision` event
  };
  void StartMap(Round& round, WorkerRecord& target, JobRecord& job, const sched::Assignment& a);
  void PlaceReduceBackup(Round& round, WorkerRecord& target, JobRecord& job, const sched::Assignment& a);
  void StartReduce(Round& round, WorkerRecord& target, JobRecord& job, const sched::Assignment& a);
  // Into the reply (the heartbeating worker, if it fits: else false) or target's outbox.
  bool Deliver(Round& round, WorkerRecord& target, proto::Assignment sent, size_t bytes);
  // Traces a started attempt.
  void Started(Round& round, const WorkerRecord& target, JobRecord& job, const sched::Assignment& a,
               uint32_t attempt);

  TrackerState& state_;
  JobLifecycle& lifecycle_;
  JobPersistence& persistence_;
  MapQueues& queues_;
  AttemptKiller& killer_;
};

}  // namespace mr::master
