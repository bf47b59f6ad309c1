#include "scheduler/util/task_placer.h"

#include <algorithm>

namespace mr::sched {

TaskPlacer::TaskPlacer(const Snapshot& snap, Decision* out) : snap_(snap), out_(out), local_(snap) {
  const size_t n = snap.workers.size();
  for (auto& f : free_) f.reserve(n);
  order_.reserve(n);
  WorkerId max_id = 0;
  for (size_t w = 0; w < n; ++w) {
    const WorkerView& v = snap.workers[w];
    const int counts[3] = {std::max(0, v.free_map), std::max(0, v.free_reduce),
                           std::max(0, v.free_unified)};
    for (int k = 0; k < 3; ++k) {
      free_[k].push_back(counts[k]);
      free_total_[k] += counts[k];
    }
    order_.push_back(static_cast<int>(w));
    max_id = std::max(max_id, v.id);
  }
  auto faster = [&snap](int a, int b) { return snap.workers[a].speed > snap.workers[b].speed; };
  // Usually every worker has the same speed: then the order is already right.
  if (!std::is_sorted(order_.begin(), order_.end(), faster)) {
    std::stable_sort(order_.begin(), order_.end(), faster);
  }
  if (max_id <= 4 * n + 64) {
    pos_by_id_.assign(size_t{max_id} + 1, -1);
    for (size_t w = n; w-- > 0;) pos_by_id_[snap.workers[w].id] = static_cast<int>(w);
  }
  maps_taken_.assign(snap.jobs.size(), 0);
  reduces_taken_.assign(snap.jobs.size(), 0);
  // A job's bits in used_ are laid out when a reduce of it is first placed: most calls
  // place few reduces, and reading every job's ready_reduces here would cost more.
  reduce_offset_.assign(snap.jobs.size(), kNoOffset);
}

// Dense ids (the master numbers workers from 1) use the table; others search.
int TaskPlacer::WorkerIndex(WorkerId id) const {
  if (!pos_by_id_.empty() || snap_.workers.empty()) {
    return id < pos_by_id_.size() ? pos_by_id_[id] : -1;
  }
  for (size_t w = 0; w < snap_.workers.size(); ++w) {
    if (snap_.workers[w].id == id) return static_cast<int>(w);
  }
  return -1;
}

void TaskPlacer::Take(int w, SlotKind kind) {
  --free_[Kind(kind)][w];
  --free_total_[Kind(kind)];
}

bool TaskPlacer::PlaceMap(int j, SlotKind kind) {
  const int k = Kind(kind);
  if (kind == SlotKind::kReduce || free_total_[k] == 0 || pending_maps(j) == 0) return false;
  // Node-local first: a worker on the host of one of the job's pending splits.
  int w = local_.LocalWorker(j, [&](int p) { return free_[k][p] > 0; });
  // Else some worker has a free slot of this kind: the round robin finds it within one lap.
  size_t& cursor = cursor_[k];
  while (w < 0) {
    if (cursor >= order_.size()) cursor = 0;
    const int c = order_[cursor++];
    if (free_[k][c] > 0) w = c;
  }
  Take(w, kind);
  const JobView& job = snap_.jobs[j];
  out_->assignments.push_back({job.id, TaskKind::kMap, local_.Take(j, w, &maps_taken_[j]), snap_.workers[w].id, kind});
  return true;
}

bool TaskPlacer::PlaceReduce(int j, SlotKind kind) {
  const int k = Kind(kind);
  if (kind == SlotKind::kMap || free_total_[k] == 0 || ready_reduces(j) == 0) return false;
  const JobView& job = snap_.jobs[j];
  if (reduce_offset_[j] == kNoOffset) {
    reduce_offset_[j] = static_cast<uint32_t>(used_.size());
    used_.resize(used_.size() + job.ready_reduces.size(), false);
  }
  const uint32_t base = reduce_offset_[j];
  for (size_t r = 0; r < job.ready_reduces.size(); ++r) {
    if (used_[base + r]) continue;
    const int w = WorkerIndex(job.ready_reduces[r].worker);
    if (w < 0 || free_[k][w] == 0) continue;  // worker gone, or its slots are taken
    used_[base + r] = true;
    ++reduces_taken_[j];
    Take(w, kind);
    out_->assignments.push_back(
        {job.id, TaskKind::kReduce, job.ready_reduces[r].index, job.ready_reduces[r].worker, kind});
    return true;
  }
  return false;
}

}  // namespace mr::sched
