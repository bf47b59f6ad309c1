// VirtualSrpt: the schedule SRPT would run if a job's reduce work did not have to wait for
// its maps — step 1 of ASRPT ("Minimizing total flow time of MapReduce jobs",
// Algorithm 1). Nothing runs on it: it is bookkeeping of how much map and reduce work
// that relaxed schedule has left for each job. Each Advance() is one round of N machines
// that each do `round` slot-seconds of work: jobs by smallest remaining work (map +
// reduce; ties by arrival) take whole machines, as many as their remaining work fills
// (ceil(work / round)), until the machines run out; within a job, map work goes before
// reduce work. MapLoad(j) is the machines the last round gave job j's map work, the
// S(i).MapLoad of Algorithm 1. In the paper's units (round = 1, integer work) this is
// exactly its slotted SRPT. Not thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "scheduler/snapshot.h"

namespace mr::sched {

class VirtualSrpt {
 public:
  enum class Membership { kArrivals, kPresent };

  explicit VirtualSrpt(Membership membership = Membership::kArrivals) : membership_(membership) {}

  struct Work {
    JobId id = 0;
    uint64_t arrival = 0;      // order of first Sync (ties in SRPT order)
    double map = 0;            // remaining map work of the virtual schedule, slot-seconds
    double reduce = 0;         // remaining reduce work, slot-seconds
    int map_load = 0;          // machines on map work in the last Advance
    // The estimate totals last seen, so that a changed estimate moves the virtual work.
    bool map_known = false, reduce_known = false;
    double map_total = 0, reduce_total = 0;
  };

  // Makes the jobs those of `snap`, in snapshot order, then (kArrivals) the jobs no longer
  // in `snap` that still have virtual work, in their earlier order: a new job enters with
  // its estimated remaining map and reduce work (map_seconds_remaining,
  // reduce_seconds_remaining; 0 when its source is kNone); a job absent from `snap` keeps
  // its virtual work unchanged (kArrivals) or is dropped (kPresent). When a known
  // estimate's total changes, the virtual remaining work moves by the same amount (never
  // below 0): the job turned out bigger or smaller than thought, the virtual schedule
  // keeps the work it has already done. An estimate that becomes known sets the
  // remaining work to the estimate's remaining. After Sync, work(i) is snap.jobs[i]'s for
  // i < snap.jobs.size(); the departed jobs follow.
  void Sync(const Snapshot& snap);
  // One round of `machines` machines of `round` slot-seconds each (REQUIRES round > 0).
  // Sets every job's map_load. Returns false (and changes nothing) when no job has work
  // left or there is no machine.
  bool Advance(int machines, double round);

  size_t size() const { return work_.size(); }  // snapshot jobs + departed ones kept
  Membership membership() const { return membership_; }
  const Work& work(size_t i) const { return work_[i]; }

 private:
  Membership membership_;
  std::vector<Work> work_;
  std::vector<Work> next_;               // scratch for Sync
  std::vector<uint8_t> seen_;            // scratch for Sync: work_[i] is in the snapshot
  std::vector<std::pair<JobId, size_t>> at_;  // (id, position in work_), sorted by id
  struct Key {
    double total;
    uint64_t arrival;
    uint32_t index;
  };
  std::vector<Key> order_;               // scratch for Advance
  uint64_t arrivals_ = 0;
};

}  // namespace mr::sched
