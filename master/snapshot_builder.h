// SnapshotBuilder: the plain view of the cluster a Scheduler decides on (scheduler/snapshot.h),
// built from the tracker's state for one scheduling round: every live worker (free slots,
// measured map task rate, queue length), every unfinished job's parameters, pending maps
// (minus those the blacklist keeps from this worker), queued maps, running attempts,
// fetching and ready reduces, shuffle data and estimate.
//
// Kept between rounds, not rebuilt (docs/master-load.md, "The snapshot"): a round's cost
// must not grow with the worker count. A worker's row holds what it registered with (never
// changes), its measured rates (change only while its own heartbeat's reports are applied:
// WorkerChanged) and its free slots (shown for the heartbeating worker only, or for every
// worker under a policy of scope kCluster). So a round rewrites the rows of the workers
// that changed since the last one, and every row only when the set of workers changed or
// every worker's free slots are shown. The job views are refilled each round in the storage
// of the last (unfinished jobs are few; their tasks change with every report). BuildFresh
// builds the same snapshot from nothing: the two must be equal (snapshot_cache_test).
#pragma once

#include <cstddef>
#include <vector>

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
  // (jobs::JobParamsFromSpec). The reference is valid until the next Build.
  const sched::Snapshot& Build(WorkerId only_free, bool every_worker_free = false);
  // The same snapshot, built from the tracker's state alone (nothing kept between calls).
  sched::Snapshot BuildFresh(WorkerId only_free, bool every_worker_free = false) const;
  // What worker w's row shows may have changed (its heartbeat's reports were applied: its
  // measured rates): its row is rewritten at the next Build.
  void WorkerChanged(WorkerId w) { changed_.push_back(w); }
  // Whether w has a free slot some unfinished job has a task for: a round runs the policy
  // only then (or to refresh shares), so idle heartbeats stay cheap.
  bool HasAssignableWork(const WorkerRecord& w) const;

 private:
  // Rewrites every worker row (free slots of only_free, or every worker's).
  void RefreshAllWorkers(sched::Snapshot* s, WorkerId only_free, bool every_worker_free) const;
  // Rewrites the row of worker id, if it is live (and in s in id order).
  void RefreshWorker(sched::Snapshot* s, WorkerId id, bool free) const;
  // s->jobs from the unfinished jobs, reusing s->jobs' storage; returns the maps queued per
  // worker as (worker, count) pairs.
  void FillJobs(sched::Snapshot* s, WorkerId only_free, std::vector<std::pair<WorkerId, int>>* queued) const;
  void FillJob(const JobRecord& job, WorkerId only_free, sched::JobView* v,
               std::vector<std::pair<WorkerId, int>>* queued) const;

  const TrackerState& state_;
  const WorkerRegistry& registry_;
  // The kept snapshot, and what its worker rows were built from.
  sched::Snapshot cache_;
  size_t worker_count_ = 0;
  WorkerId next_worker_id_ = 0;  // the registry's at the last full refresh: ids only grow
  bool rows_built_ = false;
  WorkerId last_free_ = 0;         // whose free slots the rows show (0: none)
  bool last_every_free_ = false;   // every row shows its free slots
  std::vector<WorkerId> changed_;  // WorkerChanged since the last Build
  std::vector<std::pair<WorkerId, int>> queued_;  // the queued_maps the rows show (nonzero)
};

}  // namespace mr::master
