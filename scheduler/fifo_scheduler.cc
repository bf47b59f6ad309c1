#include "scheduler/fifo_scheduler.h"

#include "scheduler/policy_util.h"

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
    d.note = Format("fifo: job %llu first (arrived %.3fs)",
                    static_cast<unsigned long long>(snap.jobs[order_[0]].id),
                    snap.jobs[order_[0]].submit_time);
  }
  return d;
}

}  // namespace mr::sched
