// LocalMaps: the one place where map placement reads a split's host (JobView::locality).
// Hadoop's JobTracker hands a heartbeating node a node-local map first and any map after;
// mrlab's policies decide WHICH job gets a map slot, and the two shared map-picking helpers
// (SlotFiller::AssignMaps, TaskPlacer::PlaceMap) ask this class WHERE and WHICH map:
//  - LocalWorker: a worker with a free slot on a host that holds a not-yet-placed pending map
//    of the job (node-local first); -1 when there is none, and the helper takes its usual
//    round robin (any worker: remote reads are allowed, nothing waits for locality).
//  - Take: the map to start on the chosen worker: the job's first untaken pending map whose
//    split is on that worker's host, else its first untaken pending map.
// A job without locality (null, or no worker on any of its hosts) costs one null check, and
// its maps go in pending_maps order exactly as before. Borrows `snap`; one per decision, as
// the helper that owns it. Not thread-safe.
#pragma once

#include <string_view>
#include <unordered_map>
#include <vector>

#include "scheduler/snapshot.h"

namespace mr::sched {

class LocalMaps {
 public:
  explicit LocalMaps(const Snapshot& snap) : snap_(snap) {}
  LocalMaps(const LocalMaps&) = delete;
  LocalMaps& operator=(const LocalMaps&) = delete;

  // Whether some pending map of job `j` (index into snap.jobs) sits on the host of some
  // worker of the snapshot: only then does the choice of worker or map matter.
  bool Matters(int j) {
    if (snap_.jobs[j].locality == nullptr) return false;
    return Job(j).any_local;
  }

  // The first worker (position in snap.workers) on a host that holds an untaken pending map
  // of job `j` for which usable(position) holds; -1 if none.
  template <class Usable>
  int LocalWorker(int j, Usable usable) {
    if (!Matters(j)) return -1;
    JobState& s = Job(j);
    for (size_t h = 0; h < s.left.size(); ++h) {
      if (s.left[h] == 0 || s.workers[h] == nullptr) continue;
      for (int w : *s.workers[h]) {
        if (usable(w)) return w;
      }
    }
    return -1;
  }

  // The map index of job `j` to start on worker position `w`, advancing *taken (the prefix
  // of the job's pending maps, in this class's order, already placed). REQUIRES: *taken <
  // pending_maps.size().
  int Take(int j, int w, int* taken);

 private:
  struct JobState {
    bool ready = false;
    bool any_local = false;
    std::vector<int> order;                        // pending_maps, local ones swapped forward
    std::vector<int> left;                         // per locality host: untaken pending maps
    std::vector<const std::vector<int>*> workers;  // per locality host: its worker positions
  };
  JobState& Job(int j);
  void IndexWorkers();

  const Snapshot& snap_;
  bool indexed_ = false;
  std::unordered_map<std::string_view, std::vector<int>> by_host_;  // worker positions per host
  std::vector<JobState> jobs_;  // sized on first use: jobs without locality never touch it
};

}  // namespace mr::sched
