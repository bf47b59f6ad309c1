#include "scheduler/slot_filler.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <tuple>

namespace mr::sched {

SlotFiller::SlotFiller(const Snapshot& snap, Decision* out, SlotFillerBuffers* buffers)
    : snap_(snap), out_(out), buf_(buffers != nullptr ? *buffers : own_) {
  buf_.maps_taken.assign(snap.jobs.size(), 0);
  buf_.free.clear();
  buf_.active.clear();
  buf_.free.reserve(snap.workers.size());
  for (const WorkerView& w : snap.workers) {
    buf_.free.push_back({std::max(0, w.free_map), std::max(0, w.free_reduce),
                         std::max(0, w.free_unified)});
    free_reduces_ += buf_.free.back().reduce + buf_.free.back().unified;
  }
}

// Worker ids are small and dense in practice (the master numbers them from 1),
// so a table indexed by id replaces a binary search per ready reduce; sparse ids
// fall back to the sorted pairs. Duplicate ids resolve to the first position.
void SlotFiller::IndexWorkers() {
  workers_indexed_ = true;
  const size_t n = snap_.workers.size();
  WorkerId max_id = 0;
  for (const WorkerView& w : snap_.workers) max_id = std::max(max_id, w.id);
  dense_ids_ = max_id <= 4 * n + 64;
  if (dense_ids_) {
    buf_.pos_by_id.assign(size_t{max_id} + 1, -1);
    for (size_t i = n; i-- > 0;) buf_.pos_by_id[snap_.workers[i].id] = static_cast<int>(i);
    return;
  }
  buf_.by_id.clear();
  for (size_t i = 0; i < n; ++i) buf_.by_id.emplace_back(snap_.workers[i].id, static_cast<int>(i));
  std::sort(buf_.by_id.begin(), buf_.by_id.end());
}

int SlotFiller::WorkerIndex(WorkerId id) const {
  if (dense_ids_) return id < buf_.pos_by_id.size() ? buf_.pos_by_id[id] : -1;
  auto it = std::lower_bound(buf_.by_id.begin(), buf_.by_id.end(), std::make_pair(id, 0));
  if (it == buf_.by_id.end() || it->first != id) return -1;
  return it->second;
}

bool SlotFiller::CanPlaceReduce(int j) {
  if (!workers_indexed_) IndexWorkers();
  for (const ReadyReduce& r : snap_.jobs[j].ready_reduces) {
    int w = WorkerIndex(r.worker);
    if (w >= 0 && buf_.free[w].reduce + buf_.free[w].unified > 0) return true;
  }
  return false;
}

void SlotFiller::PlaceReduces(std::span<const int> order) {
  assert(!maps_started_ && "reduces must be placed before maps");
  if (!workers_indexed_) IndexWorkers();
  for (int j : order) {
    // Nothing below can change once every reduce-capable slot is taken.
    if (free_reduces_ == 0) return;
    const JobView& job = snap_.jobs[j];
    for (const ReadyReduce& r : job.ready_reduces) {
      int w = WorkerIndex(r.worker);
      if (w < 0) continue;  // worker gone; the master will re-plan the reduce
      SlotFillerBuffers::Free& f = buf_.free[w];
      SlotKind kind;
      if (f.reduce > 0) {
        --f.reduce;
        kind = SlotKind::kReduce;
      } else if (f.unified > 0) {
        --f.unified;
        kind = SlotKind::kUnified;
      } else {
        continue;
      }
      --free_reduces_;
      out_->assignments.push_back({job.id, TaskKind::kReduce, r.index, r.worker, kind});
    }
  }
}

// Fastest workers first, so the head of the policy's order lands on them; ties
// by position keep the result deterministic.
void SlotFiller::StartMaps() {
  maps_started_ = true;
  std::vector<int>& active = buf_.active;
  for (size_t i = 0; i < buf_.free.size(); ++i) {
    const int n = buf_.free[i].map + buf_.free[i].unified;
    if (n > 0) {
      active.push_back(static_cast<int>(i));
      free_maps_ += n;
    }
  }
  // Usually every worker has the same speed: then the order is already right.
  auto faster = [this](int a, int b) { return snap_.workers[a].speed > snap_.workers[b].speed; };
  if (!std::is_sorted(active.begin(), active.end(), faster)) {
    std::stable_sort(active.begin(), active.end(), faster);
  }
}

int SlotFiller::free_map_slots() {
  if (!maps_started_) StartMaps();
  return free_maps_;
}

int SlotFiller::pending_maps(int j) const {
  return static_cast<int>(snap_.jobs[j].pending_maps.size()) - buf_.maps_taken[j];
}

int SlotFiller::running_maps(int j) const {
  return snap_.jobs[j].maps_running + buf_.maps_taken[j];
}

int SlotFiller::AssignMaps(int j, int n) {
  if (!maps_started_) StartMaps();
  const JobView& job = snap_.jobs[j];
  std::vector<int>& active = buf_.active;
  int done = 0;
  while (done < n && free_maps_ > 0 && pending_maps(j) > 0) {
    if (cursor_ >= active.size()) cursor_ = 0;
    int w = active[cursor_];
    SlotFillerBuffers::Free& f = buf_.free[w];
    SlotKind kind = SlotKind::kMap;
    if (f.map > 0) {
      --f.map;
    } else {
      --f.unified;
      kind = SlotKind::kUnified;
    }
    int index = job.pending_maps[buf_.maps_taken[j]++];
    out_->assignments.push_back({job.id, TaskKind::kMap, index, snap_.workers[w].id, kind});
    --free_maps_;
    ++done;
    if (f.map + f.unified == 0) {
      active.erase(active.begin() + static_cast<std::ptrdiff_t>(cursor_));
    } else {
      ++cursor_;
    }
  }
  return done;
}

void SlotFiller::FillInOrder(std::span<const int> order) {
  for (int j : order) {
    if (free_map_slots() == 0) return;
    AssignMaps(j, pending_maps(j));
  }
}

namespace {

// (class, score, last served, position): smaller is served first. Class 0 =
// below min share.
using Key = std::tuple<int, double, uint64_t, size_t>;

Key KeyFor(const SlotFiller& f, const SlotTarget& t, size_t pos) {
  double running = f.running_maps(t.job);
  if (running < t.min_share) return {0, running / t.min_share, t.last_served, pos};
  return {1, running - t.target, t.last_served, pos};
}

}  // namespace

// A min-heap kept in the caller's vector (std::priority_queue cannot borrow one).
void FillTowardTargets(SlotFiller& filler, std::span<const SlotTarget> targets,
                       FillScratch* scratch) {
  FillScratch own;
  std::vector<Key>& heap = (scratch != nullptr ? scratch : &own)->heap;
  heap.clear();
  for (size_t i = 0; i < targets.size(); ++i) {
    if (filler.pending_maps(targets[i].job) > 0) heap.push_back(KeyFor(filler, targets[i], i));
  }
  const std::greater<Key> later;
  std::make_heap(heap.begin(), heap.end(), later);
  while (!heap.empty() && filler.free_map_slots() > 0) {
    std::pop_heap(heap.begin(), heap.end(), later);
    size_t pos = std::get<3>(heap.back());
    heap.pop_back();
    const SlotTarget& t = targets[pos];
    if (filler.AssignMaps(t.job, 1) == 1 && filler.pending_maps(t.job) > 0) {
      heap.push_back(KeyFor(filler, t, pos));
      std::push_heap(heap.begin(), heap.end(), later);
    }
  }
}

}  // namespace mr::sched
