// SlotFiller turns a policy's choices ("job j gets n more map slots", "place
// job j's ready reduces") into concrete Assignments over the workers' free slots
// of one Snapshot. It never over-assigns a slot and never assigns a task twice.
// Reduces must be placed before maps: both compete for unified slots and a ready
// reduce can only run on its own worker. One filler per Schedule() call; it
// borrows `snap`, `out` and (optionally) `buffers`, which must outlive it. A
// policy that keeps a SlotFillerBuffers between calls makes the filler
// allocation-free once the buffers have grown. Not thread-safe.
#pragma once

#include <climits>
#include <cstddef>
#include <span>
#include <cstdint>
#include <utility>
#include <vector>

#include "scheduler/snapshot.h"
#include "scheduler/util/map_locality.h"

namespace mr::sched {

// Scratch space of a SlotFiller; contents are meaningless between fillers.
struct SlotFillerBuffers {
  struct Free {
    int map = 0;
    int reduce = 0;
    int unified = 0;
  };
  std::vector<Free> free;                        // parallel to snap.workers
  std::vector<int> maps_taken;                   // per job, prefix of pending_maps
  // Per job: its ready_reduces before this index are placed, or cannot be in this decision
  // (their worker's reduce-capable slots are taken, and slots only get fewer).
  std::vector<int> reduces_seen;
  std::vector<int> active;                       // workers with a map-capable slot
  std::vector<int> pos_by_id;                    // dense worker id -> position, -1 = none
  std::vector<std::pair<WorkerId, int>> by_id;   // sorted; used when ids are sparse
};

class SlotFiller {
 public:
  // `buffers` == nullptr: the filler uses buffers of its own.
  SlotFiller(const Snapshot& snap, Decision* out, SlotFillerBuffers* buffers = nullptr);
  SlotFiller(const SlotFiller&) = delete;
  SlotFiller& operator=(const SlotFiller&) = delete;

  // Places the ready reduces of the jobs in `order` (indices into snap.jobs) on
  // their own worker: a free reduce slot first, else a free unified slot. May be
  // called again with the next jobs of the order; returns as soon as no
  // reduce-capable slot is left. A job may come again (in this call or a later one): its
  // reduces already placed are not placed twice. REQUIRES: called before any map is assigned.
  void PlaceReduces(std::span<const int> order) { PlaceReduces(order, INT_MAX); }
  // As above, placing at most `limit` reduces in all (a policy that hands reduce slots out one
  // at a time: capacity); returns how many it placed.
  int PlaceReduces(std::span<const int> order, int limit);
  // Whether some ready reduce of job `j` sits on a worker with a reduce-capable
  // slot still free. A job without one gets nothing from PlaceReduces, now or
  // later in this decision, so policies leave it out of the order they sort.
  bool CanPlaceReduce(int j);
  // Reduce-capable slots (free reduce + unified) not yet taken by a reduce;
  // meaningful before maps are assigned (maps also use unified slots).
  int free_reduce_slots() const { return free_reduces_; }

  // Map-capable slots (free map + unified left after reduces) not yet used.
  int free_map_slots();
  // Pending maps of job `j` not yet assigned in this decision. Inline: fair
  // and klps ask for every job's, several times per decision.
  int pending_maps(int j) const {
    return static_cast<int>(snap_.jobs[j].pending_maps.size()) - buf_.maps_taken[j];
  }
  // Maps of job `j` running plus those assigned in this decision.
  int running_maps(int j) const { return snap_.jobs[j].maps_running + buf_.maps_taken[j]; }
  // Assigns up to `n` pending maps of job `j`, each on a worker of its split's host when
  // one has a free slot (node-local first, scheduler/util/map_locality.h), the rest
  // spread round-robin over the workers (fastest first); never on a worker listed in
  // `avoid`. Returns how many were assigned.
  int AssignMaps(int j, int n, std::span<const WorkerId> avoid = {});
  // Each job in `order` takes every free slot it can use before the next one.
  void FillInOrder(std::span<const int> order);

  const Snapshot& snapshot() const { return snap_; }

 private:
  void StartMaps();
  void IndexWorkers();
  // Indexes the workers and sizes reduces_seen, once per filler.
  void StartReduces();
  // Position of worker `id` in snap.workers, -1 if none. Inline: called for
  // every ready reduce of every job.
  int WorkerIndex(WorkerId id) const {
    if (dense_ids_) return id < buf_.pos_by_id.size() ? buf_.pos_by_id[id] : -1;
    return SparseWorkerIndex(id);
  }
  int SparseWorkerIndex(WorkerId id) const;

  const Snapshot& snap_;
  Decision* out_;
  SlotFillerBuffers own_;    // used when the caller passes no buffers
  SlotFillerBuffers& buf_;   // own_ or the caller's
  LocalMaps local_;          // which map goes where, for jobs whose splits name hosts
  size_t cursor_ = 0;
  int free_maps_ = 0;
  int free_reduces_ = 0;
  bool maps_started_ = false;
  bool workers_indexed_ = false;
  bool reduces_started_ = false;
  bool dense_ids_ = false;
};

// A job's slot target for FillTowardTargets. `min_share` slots are served
// before anyone's fair share (Hadoop's "needy" jobs).
struct SlotTarget {
  int job = 0;  // index into snap.jobs
  double target = 0;
  double min_share = 0;
  uint64_t last_served = 0;  // ServiceMemory serial: among equals, least recently served first
};

// Hands free map slots one at a time: first to jobs running fewer maps than
// their min_share (least served relative to it first), then to the job
// furthest below its target; ties go to the earlier entry in `targets`. Keeps
// going past the targets while listed jobs still have pending maps, so the
// result is work-conserving over the listed jobs. O(jobs + slots * log jobs);
// when jobs far outnumber slots (a heartbeat's few), only the best `slots`
// jobs enter the heap.
// `scratch`, if given, is working memory kept by the caller between calls.
struct FillScratch {
  // (class, score, last served, position in targets): smaller is served first.
  // Class 0 = below min share.
  struct Key {
    int cls;
    double score;
    uint64_t last_served;
    size_t pos;
  };
  std::vector<Key> all;   // every candidate, in targets order
  std::vector<Key> heap;  // the candidates that can still be served
  std::vector<Key> rest;  // left out of `heap` because enough better ones exist
};
void FillTowardTargets(SlotFiller& filler, std::span<const SlotTarget> targets,
                       FillScratch* scratch = nullptr);

}  // namespace mr::sched
