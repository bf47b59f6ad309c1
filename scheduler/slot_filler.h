// SlotFiller turns a policy's choices ("job j gets n more map slots", "place
// job j's ready reduces") into concrete Assignments over the workers' free slots
// of one Snapshot. It never over-assigns a slot and never assigns a task twice.
// Reduces must be placed before maps: both compete for unified slots and a ready
// reduce can only run on its own worker. One filler per Schedule() call; it
// borrows `snap` and `out`, which must outlive it. Not thread-safe.
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "scheduler/snapshot.h"

namespace mr::sched {

class SlotFiller {
 public:
  SlotFiller(const Snapshot& snap, Decision* out);

  // Places the ready reduces of the jobs in `order` (indices into snap.jobs) on
  // their own worker: a free reduce slot first, else a free unified slot.
  // REQUIRES: called before any map is assigned.
  void PlaceReduces(std::span<const int> order);

  // Map-capable slots (free map + unified left after reduces) not yet used.
  int free_map_slots();
  // Pending maps of job `j` not yet assigned in this decision.
  int pending_maps(int j) const;
  // Maps of job `j` running plus those assigned in this decision.
  int running_maps(int j) const;
  // Assigns up to `n` pending maps of job `j`, spreading them round-robin over
  // the workers (fastest first). Returns how many were assigned.
  int AssignMaps(int j, int n);
  // Each job in `order` takes every free slot it can use before the next one.
  void FillInOrder(std::span<const int> order);

  const Snapshot& snapshot() const { return snap_; }

 private:
  struct Free {
    int map = 0;
    int reduce = 0;
    int unified = 0;
  };
  void StartMaps();
  int WorkerIndex(WorkerId id) const;

  const Snapshot& snap_;
  Decision* out_;
  std::vector<Free> free_;                        // parallel to snap.workers
  std::vector<int> maps_taken_;                   // per job, prefix of pending_maps
  std::vector<int> active_;                       // workers with a map-capable slot
  std::vector<std::pair<WorkerId, int>> by_id_;   // sorted, for reduce placement
  size_t cursor_ = 0;
  int free_maps_ = 0;
  bool maps_started_ = false;
};

// A job's slot target for FillTowardTargets. `min_share` slots are served
// before anyone's fair share (Hadoop's "needy" jobs).
struct SlotTarget {
  int job = 0;  // index into snap.jobs
  double target = 0;
  double min_share = 0;
};

// Hands free map slots one at a time: first to jobs running fewer maps than
// their min_share (least served relative to it first), then to the job
// furthest below its target; ties go to the earlier entry in `targets`. Keeps
// going past the targets while listed jobs still have pending maps, so the
// result is work-conserving over the listed jobs. O(slots * log jobs).
void FillTowardTargets(SlotFiller& filler, std::span<const SlotTarget> targets);

}  // namespace mr::sched
