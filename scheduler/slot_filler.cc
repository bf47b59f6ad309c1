#include "scheduler/slot_filler.h"

#include <algorithm>
#include <cassert>
#include <queue>
#include <tuple>

namespace mr::sched {

SlotFiller::SlotFiller(const Snapshot& snap, Decision* out)
    : snap_(snap), out_(out), maps_taken_(snap.jobs.size(), 0) {
  free_.reserve(snap.workers.size());
  for (const WorkerView& w : snap.workers) {
    free_.push_back({std::max(0, w.free_map), std::max(0, w.free_reduce),
                     std::max(0, w.free_unified)});
  }
}

int SlotFiller::WorkerIndex(WorkerId id) const {
  auto it = std::lower_bound(by_id_.begin(), by_id_.end(), std::make_pair(id, 0));
  if (it == by_id_.end() || it->first != id) return -1;
  return it->second;
}

void SlotFiller::PlaceReduces(std::span<const int> order) {
  assert(!maps_started_ && "reduces must be placed before maps");
  if (by_id_.empty()) {
    by_id_.reserve(snap_.workers.size());
    for (size_t i = 0; i < snap_.workers.size(); ++i) {
      by_id_.emplace_back(snap_.workers[i].id, static_cast<int>(i));
    }
    std::sort(by_id_.begin(), by_id_.end());
  }
  for (int j : order) {
    const JobView& job = snap_.jobs[j];
    for (const ReadyReduce& r : job.ready_reduces) {
      int w = WorkerIndex(r.worker);
      if (w < 0) continue;  // worker gone; the master will re-plan the reduce
      SlotKind kind;
      if (free_[w].reduce > 0) {
        --free_[w].reduce;
        kind = SlotKind::kReduce;
      } else if (free_[w].unified > 0) {
        --free_[w].unified;
        kind = SlotKind::kUnified;
      } else {
        continue;
      }
      out_->assignments.push_back({job.id, TaskKind::kReduce, r.index, r.worker, kind});
    }
  }
}

// Fastest workers first, so the head of the policy's order lands on them; ties
// by position keep the result deterministic.
void SlotFiller::StartMaps() {
  maps_started_ = true;
  for (size_t i = 0; i < free_.size(); ++i) {
    if (free_[i].map + free_[i].unified > 0) {
      active_.push_back(static_cast<int>(i));
      free_maps_ += free_[i].map + free_[i].unified;
    }
  }
  std::stable_sort(active_.begin(), active_.end(), [this](int a, int b) {
    return snap_.workers[a].speed > snap_.workers[b].speed;
  });
}

int SlotFiller::free_map_slots() {
  if (!maps_started_) StartMaps();
  return free_maps_;
}

int SlotFiller::pending_maps(int j) const {
  return static_cast<int>(snap_.jobs[j].pending_maps.size()) - maps_taken_[j];
}

int SlotFiller::running_maps(int j) const {
  return snap_.jobs[j].maps_running + maps_taken_[j];
}

int SlotFiller::AssignMaps(int j, int n) {
  if (!maps_started_) StartMaps();
  const JobView& job = snap_.jobs[j];
  int done = 0;
  while (done < n && free_maps_ > 0 && pending_maps(j) > 0) {
    if (cursor_ >= active_.size()) cursor_ = 0;
    int w = active_[cursor_];
    SlotKind kind = SlotKind::kMap;
    if (free_[w].map > 0) {
      --free_[w].map;
    } else {
      --free_[w].unified;
      kind = SlotKind::kUnified;
    }
    int index = job.pending_maps[maps_taken_[j]++];
    out_->assignments.push_back({job.id, TaskKind::kMap, index, snap_.workers[w].id, kind});
    --free_maps_;
    ++done;
    if (free_[w].map + free_[w].unified == 0) {
      active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(cursor_));
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

// (class, score, position): smaller is served first. Class 0 = below min share.
using Key = std::tuple<int, double, size_t>;

Key KeyFor(const SlotFiller& f, const SlotTarget& t, size_t pos) {
  double running = f.running_maps(t.job);
  if (running < t.min_share) return {0, running / t.min_share, pos};
  return {1, running - t.target, pos};
}

}  // namespace

void FillTowardTargets(SlotFiller& filler, std::span<const SlotTarget> targets) {
  std::vector<Key> keys;
  keys.reserve(targets.size());
  for (size_t i = 0; i < targets.size(); ++i) {
    if (filler.pending_maps(targets[i].job) > 0) keys.push_back(KeyFor(filler, targets[i], i));
  }
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> heap(std::greater<Key>(),
                                                                     std::move(keys));
  while (!heap.empty() && filler.free_map_slots() > 0) {
    size_t pos = std::get<2>(heap.top());
    heap.pop();
    const SlotTarget& t = targets[pos];
    if (filler.AssignMaps(t.job, 1) == 1 && filler.pending_maps(t.job) > 0) {
      heap.push(KeyFor(filler, t, pos));
    }
  }
}

}  // namespace mr::sched
