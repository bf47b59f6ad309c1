#include "scheduler/fifo_scheduler.h"

#include "scheduler/policy_util.h"
#include "scheduler/slot_filler.h"

namespace mr::sched {

Decision FifoScheduler::Schedule(const Snapshot& snap) {
  Decision d;
  std::vector<int> order = ArrivalOrder(snap);
  SlotFiller filler(snap, &d);
  filler.PlaceReduces(order);
  filler.FillInOrder(order);
  int head = FirstWithShuffleData(snap, order);
  if (head >= 0) d.shuffle_shares[snap.jobs[head].id] = 1.0;
  if (order.empty()) {
    d.note = "fifo: no jobs";
  } else {
    d.note = Format("fifo: job %llu first (arrived %.3fs)",
                    static_cast<unsigned long long>(snap.jobs[order[0]].id),
                    snap.jobs[order[0]].submit_time);
  }
  return d;
}

}  // namespace mr::sched
