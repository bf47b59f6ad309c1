#include "scheduler/util/slot_filler.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace mr::sched {

SlotFiller::SlotFiller(const Snapshot& snap, Decision* out, SlotFillerBuffers* buffers)
    : snap_(snap), out_(out), buf_(buffers != nullptr ? *buffers : own_), local_(snap) {
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

int SlotFiller::SparseWorkerIndex(WorkerId id) const {
  auto it = std::lower_bound(buf_.by_id.begin(), buf_.by_id.end(), std::make_pair(id, 0));
  if (it == buf_.by_id.end() || it->first != id) return -1;
  return it->second;
}

void SlotFiller::StartReduces() {
  reduces_started_ = true;
  if (!workers_indexed_) IndexWorkers();
  buf_.reduces_seen.assign(snap_.jobs.size(), 0);
}

bool SlotFiller::CanPlaceReduce(int j) {
  if (free_reduces_ == 0) return false;
  if (!reduces_started_) StartReduces();
  const std::vector<ReadyReduce>& ready = snap_.jobs[j].ready_reduces;
  for (size_t i = static_cast<size_t>(buf_.reduces_seen[j]); i < ready.size(); ++i) {
    const ReadyReduce& r = ready[i];
    int w = WorkerIndex(r.worker);
    if (w >= 0 && buf_.free[w].reduce + buf_.free[w].unified > 0) return true;
  }
  return false;
}

int SlotFiller::PlaceReduces(std::span<const int> order, int limit) {
  assert(!maps_started_ && "reduces must be placed before maps");
  if (!reduces_started_) StartReduces();
  int placed = 0;
  for (int j : order) {
    // Nothing below can change once every reduce-capable slot is taken.
    if (free_reduces_ == 0 || placed >= limit) return placed;
    const JobView& job = snap_.jobs[j];
    int& seen = buf_.reduces_seen[j];
    for (; seen < static_cast<int>(job.ready_reduces.size()) && placed < limit; ++seen) {
      const ReadyReduce& r = job.ready_reduces[static_cast<size_t>(seen)];
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
      ++placed;
      out_->assignments.push_back({job.id, TaskKind::kReduce, r.index, r.worker, kind});
    }
  }
  return placed;
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

int SlotFiller::AssignMaps(int j, int n, std::span<const WorkerId> avoid) {
  if (!maps_started_) StartMaps();
  const JobView& job = snap_.jobs[j];
  std::vector<int>& active = buf_.active;
  auto avoided = [&](int w) { return std::find(avoid.begin(), avoid.end(), snap_.workers[w].id) != avoid.end(); };
  auto usable = [&](int w) { return buf_.free[w].map + buf_.free[w].unified > 0 && !avoided(w); };
  int done = 0;
  while (done < n && free_maps_ > 0 && pending_maps(j) > 0) {
    if (cursor_ >= active.size()) cursor_ = 0;
    // Node-local first: a worker on the host of one of the job's pending splits.
    int w = local_.LocalWorker(j, usable);
    const bool local = w >= 0;
    if (!local) {
      if (!avoid.empty()) {
        size_t tried = 0;
        while (tried < active.size() && avoided(active[cursor_])) {
          cursor_ = cursor_ + 1 < active.size() ? cursor_ + 1 : 0;
          ++tried;
        }
        if (tried == active.size()) break;  // every free slot is on an avoided worker
      }
      w = active[cursor_];
    }
    SlotFillerBuffers::Free& f = buf_.free[w];
    SlotKind kind = SlotKind::kMap;
    if (f.map > 0) {
      --f.map;
    } else {
      --f.unified;
      kind = SlotKind::kUnified;
    }
    int index = local_.Take(j, w, &buf_.maps_taken[j]);
    out_->assignments.push_back({job.id, TaskKind::kMap, index, snap_.workers[w].id, kind});
    --free_maps_;
    ++done;
    if (f.map + f.unified == 0) {
      // The round robin's pick sits at the cursor; a local pick may sit anywhere.
      const size_t at = local ? static_cast<size_t>(std::find(active.begin(), active.end(), w) - active.begin())
                              : cursor_;
      active.erase(active.begin() + static_cast<std::ptrdiff_t>(at));
      if (at < cursor_) --cursor_;
    } else if (!local) {
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

using Key = FillScratch::Key;

Key KeyFor(const SlotFiller& f, const SlotTarget& t, size_t pos) {
  double running = f.running_maps(t.job);
  if (running < t.min_share) return {0, running / t.min_share, t.last_served, pos};
  return {1, running - t.target, t.last_served, pos};
}

// Field by field, `!=` before `<`: exactly the order of the std::tuple
// comparison this replaced (a NaN score included), without its three-way
// comparison of doubles. Function objects, so the heap algorithms inline them.
struct Before {
  bool operator()(const Key& a, const Key& b) const {
    if (a.cls != b.cls) return a.cls < b.cls;
    if (a.score != b.score) return a.score < b.score;
    if (a.last_served != b.last_served) return a.last_served < b.last_served;
    return a.pos < b.pos;
  }
};
struct After {
  bool operator()(const Key& a, const Key& b) const { return Before()(b, a); }
};

// Keeps the `k` best of `all` in `*best` (unordered) and the others in `*rest`
// with one comparison per candidate against the worst kept so far.
void KeepBest(const std::vector<Key>& all, size_t k, std::vector<Key>* best,
              std::vector<Key>* rest) {
  for (const Key& key : all) {
    if (best->size() < k) {
      best->push_back(key);
      std::push_heap(best->begin(), best->end(), Before());  // worst on top
    } else if (Before()(key, best->front())) {
      rest->push_back(best->front());
      std::pop_heap(best->begin(), best->end(), Before());
      best->back() = key;
      std::push_heap(best->begin(), best->end(), Before());
    } else {
      rest->push_back(key);
    }
  }
}

}  // namespace

// A min-heap kept in the caller's vector (std::priority_queue cannot borrow one).
// Every pop fills a slot, so with k free slots only the k best candidates can
// ever be popped (a served job comes back with a worse key): when candidates
// outnumber slots eightfold the heap holds just those (below that, picking
// them costs more than the smaller heap saves). Keys are unique (by position),
// so which entries sit in the heap does not change the order they come out in.
// Two cases void that argument and put every candidate back: a NaN score (no
// strict order) and a pop that fills no slot (a job listed twice).
void FillTowardTargets(SlotFiller& filler, std::span<const SlotTarget> targets,
                       FillScratch* scratch) {
  const size_t slots = static_cast<size_t>(filler.free_map_slots());
  if (slots == 0) return;
  FillScratch own;
  FillScratch& s = scratch != nullptr ? *scratch : own;
  s.all.clear();
  s.heap.clear();
  s.rest.clear();
  bool ordered = true;
  for (size_t i = 0; i < targets.size(); ++i) {
    if (filler.pending_maps(targets[i].job) > 0) {
      s.all.push_back(KeyFor(filler, targets[i], i));
      ordered = ordered && !std::isnan(s.all.back().score);
    }
  }
  if (ordered && 8 * slots < s.all.size()) {
    KeepBest(s.all, slots, &s.heap, &s.rest);
  } else {
    s.heap.swap(s.all);
  }
  std::vector<Key>& heap = s.heap;
  std::make_heap(heap.begin(), heap.end(), After());
  while (!heap.empty() && filler.free_map_slots() > 0) {
    std::pop_heap(heap.begin(), heap.end(), After());
    size_t pos = heap.back().pos;
    heap.pop_back();
    const SlotTarget& t = targets[pos];
    const int got = filler.AssignMaps(t.job, 1);
    if (got == 1 && filler.pending_maps(t.job) > 0) {
      heap.push_back(KeyFor(filler, t, pos));
      std::push_heap(heap.begin(), heap.end(), After());
    }
    if (got == 0 && !s.rest.empty()) {
      heap.insert(heap.end(), s.rest.begin(), s.rest.end());
      s.rest.clear();
      std::make_heap(heap.begin(), heap.end(), After());
    }
  }
}

}  // namespace mr::sched
