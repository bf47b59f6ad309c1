#include "scheduler/policies/asrpt_scheduler.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scheduler/util/id_lookup.h"
#include "scheduler/util/mostly_sorted.h"
#include "scheduler/util/policy_util.h"

namespace mr::sched {
namespace {

// Rounds are compared on doubles; a call a hair before the boundary (clock arithmetic)
// still starts the round.
constexpr double kRoundSlack = 1e-9;

int UnifiedSlots(const Snapshot& snap) {
  int n = 0;
  for (const WorkerView& w : snap.workers) n += std::max(0, w.unified_slots);
  return n;
}

// Maps left: not all done, or some still pending, queued or running (whichever the
// snapshot shows). Its reduces wait until this is false.
bool MapPhase(const JobView& job) {
  return job.maps_done < job.maps_total || !job.pending_maps.empty() || !job.queued_maps.empty() ||
         job.maps_running > 0;
}

// Algorithm 1's "available workload": map + reduce work while the job has maps left,
// else its reduce work. A job of unknown map size ranks after every job of known size.
// Unknown reduce work counts as 0.
double AvailableWorkload(const JobView& job, bool map_phase) {
  const SizeEstimate& e = job.estimate;
  const double reduce = e.reduce_source == EstimateSource::kNone ? 0 : e.reduce_seconds_remaining;
  if (!map_phase) return reduce;
  if (e.source == EstimateSource::kNone) return std::numeric_limits<double>::infinity();
  return e.map_seconds_remaining + reduce;
}

}  // namespace

Decision AsrptScheduler::Schedule(const Snapshot& snap) {
  Decision d;
  const int machines = UnifiedSlots(snap);
  const bool new_round = !started_ || snap.now >= round_start_ + round_ * (1 - kRoundSlack);
  ReadLive(snap);
  if (new_round) {
    NewRound(snap, machines);  // also reads the plan
  } else {
    ReadPlan(snap);
  }
  want_.clear();
  for (size_t j = 0; j < live_.size(); ++j) {
    if (live_[j].alloc > live_[j].running) want_.push_back(static_cast<int>(j));
  }
  {
    TaskPlacer placer(snap, &d);
    if (placer.free(SlotKind::kReduce) > 0) FillInOrder(placer, SlotKind::kReduce, true);
    FillUnified(placer);
    if (placer.free(SlotKind::kUnified) > 0) {
      FillInOrder(placer, SlotKind::kUnified, true);
      FillInOrder(placer, SlotKind::kUnified, false);
    }
    if (placer.free(SlotKind::kMap) > 0) FillInOrder(placer, SlotKind::kMap, false);
  }
  Shares(snap, &d);
  if (by_pos_.empty()) {
    d.note = Format("asrpt: round %llu, no jobs", static_cast<unsigned long long>(round_index_));
  } else {
    const JobView& first = snap.jobs[by_pos_[0]];
    d.note = Format("asrpt: round %llu%s, %d unified slots, job %llu first (alloc %d)",
                    static_cast<unsigned long long>(round_index_), new_round ? " planned" : "",
                    machines, static_cast<unsigned long long>(first.id),
                    live_[by_pos_[0]].alloc);
  }
  return d;
}

void AsrptScheduler::ReadLive(const Snapshot& snap) {
  const size_t n = snap.jobs.size();
  live_.resize(n);
  any_shuffle_ = false;
  for (size_t j = 0; j < n; ++j) {
    const JobView& job = snap.jobs[j];
    Live& l = live_[j];
    int maps = 0, reduces = 0;
    for (const RunningAttempt& a : job.running) {
      if (a.slot != SlotKind::kUnified) continue;
      (a.kind == TaskKind::kMap ? maps : reduces) += 1;
    }
    l.map_phase = MapPhase(job);
    l.probe = job.estimate.source == EstimateSource::kNone && job.maps_running == 0 && job.maps_done == 0;
    l.shuffle = job.shuffle_bytes_available > 0;
    any_shuffle_ |= l.shuffle;
    l.running = l.map_phase ? maps : reduces;
    l.kept = reduces;
    l.tasks = static_cast<int>(l.map_phase ? job.pending_maps.size() : job.ready_reduces.size());
    l.alloc = 0;
    l.pos = 0;
  }
}

// Rounds skipped since the last call (no call came during them) still run in the virtual
// schedule, over the jobs it knew then: it is the work SRPT would have done in that time.
// The machines are this snapshot's (the skipped rounds' are not known).
void AsrptScheduler::NewRound(const Snapshot& snap, int machines) {
  uint64_t rounds = 1;
  if (!started_) {
    started_ = true;
    round_start_ = snap.now;
  } else {
    rounds = std::max<uint64_t>(
        1, static_cast<uint64_t>(std::floor((snap.now - round_start_) / round_ + kRoundSlack)));
    round_start_ += static_cast<double>(rounds) * round_;
    round_index_ += rounds;
  }
  // The skipped rounds serve the jobs known before them; jobs new in `snap` arrived since.
  for (uint64_t r = 1; r < rounds; ++r) {
    if (!srpt_.Advance(machines, round_)) break;
  }
  srpt_.Sync(snap);
  srpt_.Advance(machines, round_);
  Plan(snap, machines);
}

// ASRPT's order is by available workload, ties by arrival (then snapshot position): a
// strict total order, so any correct sort gives the same one. Between rounds most jobs'
// workloads do not move (only running jobs' and refined estimates' do), so the jobs whose
// workload is the one planned are listed in last round's order and the rest after them,
// and SortMostlySorted sorts only what is out of place.
void AsrptScheduler::OrderKeys(const Snapshot& snap) {
  const size_t n = snap.jobs.size();
  ArrivalOrder(snap, &order_);
  rank_.resize(n);
  for (size_t k = 0; k < n; ++k) rank_[order_[k]] = static_cast<int>(k);
  slots_.assign(static_cast<size_t>(plan_count_), Key{0, 0, -1});
  rest_.clear();
  bool nan = false;
  IdCursor<Planned> cursor(plan_);
  for (size_t j = 0; j < n; ++j) {
    const Key key{AvailableWorkload(snap.jobs[j], live_[j].map_phase), rank_[j], static_cast<int>(j)};
    nan |= std::isnan(key.workload);
    const int at = cursor.Find(snap.jobs[j].id);
    if (at >= 0 && plan_[at].second.workload == key.workload && slots_[plan_[at].second.pos].job < 0) {
      slots_[plan_[at].second.pos] = key;
    } else {
      rest_.push_back(key);
    }
  }
  keys_.clear();
  for (const Key& k : slots_) {
    if (k.job >= 0) keys_.push_back(k);
  }
  keys_.insert(keys_.end(), rest_.begin(), rest_.end());
  auto less = [](const Key& a, const Key& b) {
    return a.workload != b.workload ? a.workload < b.workload : a.arrival < b.arrival;
  };
  if (nan) {
    // Not an order with NaN: sort as a full sort from arrival order always did.
    for (size_t k = 0; k < n; ++k) {
      const int j = order_[k];
      keys_[k] = {AvailableWorkload(snap.jobs[j], live_[j].map_phase), static_cast<int>(k), j};
    }
    std::sort(keys_.begin(), keys_.end(), less);
    return;
  }
  SortMostlySorted(&keys_, less, &run_, &rest_);
}

void AsrptScheduler::Plan(const Snapshot& snap, int machines) {
  const size_t n = snap.jobs.size();
  OrderKeys(snap);
  jobs_.clear();
  for (size_t k = 0; k < n; ++k) {
    const int j = keys_[k].job;
    order_[k] = j;
    const Live& l = live_[j];
    AsrptJob a;
    a.map_phase = l.map_phase;
    a.kept = l.kept;
    if (a.map_phase) {
      a.schedulable = l.tasks + l.running;
      a.map_load = srpt_.work(static_cast<size_t>(j)).map_load;
      a.probe = l.probe;
    } else {
      a.schedulable = l.tasks;
    }
    jobs_.push_back(a);
  }
  AllocateAsrpt(jobs_, machines, &alloc_);
  // In snapshot order, which is id order when ids grow with arrival: then no sort.
  plan_.resize(n);
  for (size_t k = 0; k < n; ++k) {
    const int j = order_[k];
    plan_[j] = {snap.jobs[j].id, Planned{alloc_[k], static_cast<int>(k), keys_[k].workload}};
    live_[j].alloc = alloc_[k];
    live_[j].pos = static_cast<int>(k);
  }
  by_pos_.assign(order_.begin(), order_.end());  // what ReadPlan would find
  auto by_id = [](const auto& a, const auto& b) { return a.first < b.first; };
  if (!std::is_sorted(plan_.begin(), plan_.end(), by_id)) std::sort(plan_.begin(), plan_.end(), by_id);
  plan_count_ = static_cast<int>(n);
}

void AsrptScheduler::ReadPlan(const Snapshot& snap) {
  const size_t n = snap.jobs.size();
  by_pos_.assign(static_cast<size_t>(plan_count_), -1);
  extra_.clear();
  IdCursor<Planned> cursor(plan_);
  for (size_t j = 0; j < n; ++j) {
    Live& l = live_[j];
    const int at = cursor.Find(snap.jobs[j].id);
    if (at >= 0 && by_pos_[plan_[at].second.pos] < 0) {
      l.alloc = plan_[at].second.alloc;
      l.pos = plan_[at].second.pos;
      by_pos_[l.pos] = static_cast<int>(j);
    } else {
      l.pos = plan_count_ + static_cast<int>(j);
      extra_.push_back(static_cast<int>(j));
    }
  }
  by_pos_.erase(std::remove(by_pos_.begin(), by_pos_.end(), -1), by_pos_.end());
  by_pos_.insert(by_pos_.end(), extra_.begin(), extra_.end());
}

// Each free unified slot to the job furthest below its allocation (ties: ASRPT order)
// that has a task to start; a job that cannot place one now never will in this call.
void AsrptScheduler::FillUnified(TaskPlacer& placer) {
  if (placer.free(SlotKind::kUnified) == 0) return;
  auto before = [](const Want& a, const Want& b) {
    if (a.deficit != b.deficit) return a.deficit < b.deficit;
    return a.pos > b.pos;
  };
  heap_.clear();
  for (int j : want_) {
    const Live& l = live_[j];
    const int tasks = l.map_phase ? placer.pending_maps(j) : placer.ready_reduces(j);
    if (tasks > 0) heap_.push_back({l.alloc - l.running, l.pos, j});
  }
  std::make_heap(heap_.begin(), heap_.end(), before);
  while (!heap_.empty() && placer.free(SlotKind::kUnified) > 0) {
    std::pop_heap(heap_.begin(), heap_.end(), before);
    Want w = heap_.back();
    heap_.pop_back();
    const bool placed = live_[w.job].map_phase ? placer.PlaceMap(w.job, SlotKind::kUnified)
                                               : placer.PlaceReduce(w.job, SlotKind::kUnified);
    if (placed && --w.deficit > 0) {
      heap_.push_back(w);
      std::push_heap(heap_.begin(), heap_.end(), before);
    }
  }
}

// Jobs in ASRPT order take every free `slot` they can use: ready reduces of jobs whose
// maps are done (reduces = true) or pending maps of jobs with maps left.
void AsrptScheduler::FillInOrder(TaskPlacer& placer, SlotKind slot, bool reduces) {
  for (int j : by_pos_) {
    if (placer.free(slot) == 0) return;
    if (live_[j].map_phase == reduces || live_[j].tasks == 0) continue;  // nothing of that kind
    while (reduces ? placer.PlaceReduce(j, slot) : placer.PlaceMap(j, slot)) {
    }
  }
}

// Shuffle: share 1.0 to the first job in ASRPT order with data to send (the shuffle
// server lends what it cannot use). map_shares: the allocation of every job holding one.
void AsrptScheduler::Shares(const Snapshot& snap, Decision* d) {
  for (size_t k = 0; any_shuffle_ && k < by_pos_.size(); ++k) {
    if (live_[by_pos_[k]].shuffle) {
      d->shuffle_shares[snap.jobs[by_pos_[k]].id] = 1.0;
      break;
    }
  }
  share_pairs_.clear();
  for (size_t j = 0; j < live_.size(); ++j) {
    if (live_[j].alloc > 0) share_pairs_.emplace_back(snap.jobs[j].id, live_[j].alloc);
  }
  AddShares(share_pairs_, &d->map_shares);
}

}  // namespace mr::sched
