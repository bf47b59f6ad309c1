#include "scheduler/asrpt_scheduler.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scheduler/id_lookup.h"
#include "scheduler/policy_util.h"

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

int RunningOnUnified(const JobView& job, TaskKind kind) {
  int n = 0;
  for (const RunningAttempt& a : job.running) {
    if (a.slot == SlotKind::kUnified && a.kind == kind) ++n;
  }
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
double AvailableWorkload(const JobView& job) {
  const SizeEstimate& e = job.estimate;
  const double reduce = e.reduce_source == EstimateSource::kNone ? 0 : e.reduce_seconds_remaining;
  if (!MapPhase(job)) return reduce;
  if (e.source == EstimateSource::kNone) return std::numeric_limits<double>::infinity();
  return e.map_seconds_remaining + reduce;
}

}  // namespace

Decision AsrptScheduler::Schedule(const Snapshot& snap) {
  Decision d;
  const int machines = UnifiedSlots(snap);
  const bool new_round = !started_ || snap.now >= round_start_ + round_ * (1 - kRoundSlack);
  if (new_round) {
    NewRound(snap, machines);  // also reads the jobs
  } else {
    ReadJobs(snap);
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

void AsrptScheduler::Plan(const Snapshot& snap, int machines) {
  const size_t n = snap.jobs.size();
  // By available workload, ties by arrival (then snapshot position).
  ArrivalOrder(snap, &order_);
  keys_.clear();
  for (size_t k = 0; k < n; ++k) {
    keys_.push_back({AvailableWorkload(snap.jobs[order_[k]]), static_cast<int>(k), order_[k]});
  }
  std::sort(keys_.begin(), keys_.end(), [](const Key& a, const Key& b) {
    return a.workload != b.workload ? a.workload < b.workload : a.arrival < b.arrival;
  });
  for (size_t k = 0; k < n; ++k) order_[k] = keys_[k].job;
  jobs_.clear();
  live_.assign(n, Live{});
  for (int j : order_) {
    const JobView& job = snap.jobs[j];
    AsrptJob a;
    a.map_phase = MapPhase(job);
    a.kept = RunningOnUnified(job, TaskKind::kReduce);
    live_[j].map_phase = a.map_phase;
    live_[j].running = a.kept;
    if (a.map_phase) {
      live_[j].running = RunningOnUnified(job, TaskKind::kMap);
      a.schedulable = static_cast<int>(job.pending_maps.size()) + live_[j].running;
      a.map_load = srpt_.work(static_cast<size_t>(j)).map_load;
      a.probe = job.estimate.source == EstimateSource::kNone && job.maps_running == 0 &&
                job.maps_done == 0;
    } else {
      a.schedulable = static_cast<int>(job.ready_reduces.size());
    }
    jobs_.push_back(a);
  }
  AllocateAsrpt(jobs_, machines, &alloc_);
  // In snapshot order, which is id order when ids grow with arrival: then no sort.
  plan_.assign(n, {});
  for (size_t k = 0; k < n; ++k) {
    plan_[order_[k]] = {snap.jobs[order_[k]].id, Planned{alloc_[k], static_cast<int>(k)}};
    live_[order_[k]].alloc = alloc_[k];
    live_[order_[k]].pos = static_cast<int>(k);
  }
  by_pos_.assign(order_.begin(), order_.end());  // what ReadJobs would find
  auto by_id = [](const auto& a, const auto& b) { return a.first < b.first; };
  if (!std::is_sorted(plan_.begin(), plan_.end(), by_id)) std::sort(plan_.begin(), plan_.end(), by_id);
  plan_count_ = static_cast<int>(n);
}

void AsrptScheduler::ReadJobs(const Snapshot& snap) {
  const size_t n = snap.jobs.size();
  live_.assign(n, Live{});
  by_pos_.assign(static_cast<size_t>(plan_count_) + n, -1);
  size_t cursor = 0;
  for (size_t j = 0; j < n; ++j) {
    const JobView& job = snap.jobs[j];
    Live& l = live_[j];
    l.map_phase = MapPhase(job);
    l.running = RunningOnUnified(job, l.map_phase ? TaskKind::kMap : TaskKind::kReduce);
    l.pos = plan_count_ + static_cast<int>(j);
    const int at = FindId<Planned>(plan_, job.id, &cursor);
    if (at >= 0 && by_pos_[plan_[at].second.pos] < 0) {
      l.alloc = plan_[at].second.alloc;
      l.pos = plan_[at].second.pos;
    }
    by_pos_[l.pos] = static_cast<int>(j);
  }
  by_pos_.erase(std::remove(by_pos_.begin(), by_pos_.end(), -1), by_pos_.end());
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
  for (size_t j = 0; j < live_.size(); ++j) {
    const Live& l = live_[j];
    const int deficit = l.alloc - l.running;
    const int tasks = l.map_phase ? placer.pending_maps(static_cast<int>(j))
                                  : placer.ready_reduces(static_cast<int>(j));
    if (deficit > 0 && tasks > 0) heap_.push_back({deficit, l.pos, static_cast<int>(j)});
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
    if (live_[j].map_phase == reduces) continue;
    while (reduces ? placer.PlaceReduce(j, slot) : placer.PlaceMap(j, slot)) {
    }
  }
}

// Shuffle: share 1.0 to the first job in ASRPT order with data to send (the shuffle
// server lends what it cannot use). map_shares: the allocation of every job holding one.
void AsrptScheduler::Shares(const Snapshot& snap, Decision* d) {
  for (int j : by_pos_) {
    if (snap.jobs[j].shuffle_bytes_available > 0) {
      d->shuffle_shares[snap.jobs[j].id] = 1.0;
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
