// TaskPlacer places one task at a time on the free slots of one Snapshot, in whatever
// order a policy chooses: "a map of job j on a unified slot", then "a reduce of job k on a
// reduce slot", and so on. SlotFiller (scheduler/slot_filler.h) hands a job every slot it
// can use and must place all reduces before any map; ASRPT and LRPT interleave the two
// kinds slot by slot (the job furthest below its allocation, the largest job first), which
// is what this class is for. It never over-uses a worker's free slots, never assigns a
// task twice, places a reduce only on its own worker and a map only from pending_maps
// (queued maps belong to their worker's queue and are left alone). One placer per
// Schedule() call; it borrows `snap` and `out`, which must outlive it. Not thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "scheduler/snapshot.h"
#include "scheduler/util/map_locality.h"

namespace mr::sched {

class TaskPlacer {
 public:
  TaskPlacer(const Snapshot& snap, Decision* out);
  TaskPlacer(const TaskPlacer&) = delete;
  TaskPlacer& operator=(const TaskPlacer&) = delete;

  // Free slots of `kind` not yet used by this placer, over every worker in the snapshot.
  int free(SlotKind kind) const { return free_total_[Kind(kind)]; }
  // Pending maps of job `j` (index into snap.jobs) not yet placed.
  int pending_maps(int j) const {
    return static_cast<int>(snap_.jobs[j].pending_maps.size()) - maps_taken_[j];
  }
  // Ready reduces of job `j` not yet placed (on any worker).
  int ready_reduces(int j) const {
    return static_cast<int>(snap_.jobs[j].ready_reduces.size()) - reduces_taken_[j];
  }

  // Places a pending map of job `j` on a free slot of `kind` (kMap or kUnified): on a
  // worker of its split's host when one has such a slot (node-local first,
  // scheduler/util/map_locality.h), else taking the workers round-robin, fastest first. False when the job has no pending map
  // left or no such slot is free.
  bool PlaceMap(int j, SlotKind kind);
  // Places one ready reduce of job `j` whose worker has a free slot of `kind` (kReduce or
  // kUnified). False when there is none.
  bool PlaceReduce(int j, SlotKind kind);

 private:
  static int Kind(SlotKind k) { return static_cast<int>(k); }
  int WorkerIndex(WorkerId id) const;
  void Take(int w, SlotKind kind);

  const Snapshot& snap_;
  Decision* out_;
  std::vector<int> free_[3];       // per worker position, by SlotKind
  int free_total_[3] = {0, 0, 0};
  std::vector<int> order_;         // worker positions, fastest first
  size_t cursor_[3] = {0, 0, 0};   // round-robin position in order_, by SlotKind
  std::vector<int> maps_taken_;    // per job: prefix of pending_maps placed
  std::vector<int> reduces_taken_; // per job: ready reduces placed
  static constexpr uint32_t kNoOffset = UINT32_MAX;  // no reduce of the job placed yet
  std::vector<uint32_t> reduce_offset_;  // per job: first bit of its ready reduces in used_
  std::vector<bool> used_;         // per ready reduce (all jobs): placed
  std::vector<int> pos_by_id_;     // worker id -> position, -1 = none (dense ids)
  LocalMaps local_;                // which map goes where, for jobs whose splits name hosts
};

}  // namespace mr::sched
