// AttemptKiller: ends running attempts on purpose, for a policy's Decision::kills and for
// the loser of a backup race. The attempt's slot frees at once; its worker is told with a
// KillTask in its next heartbeat reply (or, if the assignment has not been delivered yet,
// the assignment is withdrawn). A killed attempt is never a failure: it counts in
// job.killed_maps / job.killed_reduces and is traced as attempt_end status "killed"; the
// worker's later report of it is stale and ignored (a SUCCEEDED one has its output deleted).
#pragma once

#include <string>

#include "master/job.h"
#include "master/tracker_state.h"
#include "scheduler/snapshot.h"

namespace mr::master {

class AttemptKiller {
 public:
  explicit AttemptKiller(TrackerState& state) : state_(state) {}

  // A policy's kill. A map whose other attempt runs on goes on in that one; otherwise a map
  // becomes pending again and a reduce ready again (its fetched data stays on its worker).
  // Returns false (and changes nothing) unless k names a running attempt of an unfinished job.
  bool Kill(const sched::Kill& k);
  // Frees the slot of (job, kind, index, attempt) on worker, tells the worker and records
  // the kill. The caller updates the task's own state.
  void EndAttempt(JobRecord& job, sched::TaskKind kind, int index, uint32_t attempt, WorkerId worker, bool unified,
                  double start_time, const std::string& reason);
  // Ends reduce `index`'s backup (REQUIRES: it has one): a running backup is killed like any
  // attempt; one still fetching gives its slot back (its fetched runs go with the job).
  void DropReduceBackup(JobRecord& job, int index, const std::string& reason);
  // Reduce `index`'s attempt ended without committing (failed, killed, lost, sent back to
  // fetch). A running backup becomes the task's attempt (true: the task runs on in it); a
  // backup still fetching is dropped (false). The caller has released the ended attempt's
  // slot and fixes the task's state when this returns false.
  bool PromoteReduceBackup(JobRecord& job, int index, const std::string& why);

 private:
  // Withdraws the undelivered assignment, or queues a KillTask for the worker.
  void Tell(WorkerRecord& w, uint64_t job, sched::TaskKind kind, int index, uint32_t attempt);

  TrackerState& state_;
};

}  // namespace mr::master
