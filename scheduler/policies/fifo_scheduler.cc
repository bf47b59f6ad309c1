#include "scheduler/policies/fifo_scheduler.h"

#include "scheduler/util/policy_util.h"

namespace mr::sched {

Decision FifoScheduler::Schedule(const Snapshot& snap) {
  Decision d;
  ArrivalOrder(snap, &order_);
  SlotFiller filler(snap, &d, &buffers_);
  filler.PlaceReduces(order_);
  filler.FillInOrder(order_);
  int head = FirstWithShuffleData(snap, order_);
  if (head >= 0) d.shuffle_shares[snap.jobs[head].id] = 1.0;
  if (order_.empty()) {
    d.note = "fifo: no jobs";
  } else {
    // No submit time in the note: it is an absolute clock on a live cluster, and the job
    // page shows times relative to each job's submission (its decision rows have one).
    d.note = Format("fifo: job %llu first (submitted first of %zu)",
                    static_cast<unsigned long long>(snap.jobs[order_[0]].id), snap.jobs.size());
  }
  return d;
}

}  // namespace mr::sched
