#include "scheduler/policies/max_srpt_scheduler.h"

#include <algorithm>
#include <limits>

#include "scheduler/util/policy_util.h"

namespace mr::sched {

Decision MaxSrptScheduler::Schedule(const Snapshot& snap) {
  Decision d;
  Capacity cap = CapacityOf(snap, uncapped_link_rate_);
  sizes_.clear();
  key_.clear();
  for (const JobView& job : snap.jobs) {
    sizes_.push_back(SizeOf(job, cap));
    const JobSize& s = sizes_.back();
    key_.push_back(s.known ? std::max(s.x_remaining, s.y_remaining)
                           : std::numeric_limits<double>::infinity());
  }
  ArrivalOrder(snap, &arrival_);
  order_.Clear();
  for (int j : arrival_) order_.Add(j, key_[j]);

  SlotFiller filler(snap, &d, &buffers_);
  reduce_order_.Clear();
  for (int j : arrival_) {
    if (filler.CanPlaceReduce(j)) reduce_order_.Add(j, key_[j]);
  }
  PlaceReduces(filler, reduce_order_);
  // Jobs without an estimate rank last (key +inf) in arrival order, and only
  // they can take a probe, so the arrival order gives the same probes without
  // sorting the whole order.
  int probes = GiveProbes(filler, arrival_, sizes_);
  FillInOrder(filler, order_);
  int head = FirstWithShuffleData(snap, order_);
  if (head >= 0) d.shuffle_shares[snap.jobs[head].id] = 1.0;

  if (order_.size() == 0) {
    d.note = "maxsrpt: no jobs";
  } else {
    int first = order_.Prefix(1)[0];
    d.note = Format("maxsrpt: job %llu first (max(x,y)=%.3gs), %d probes",
                    static_cast<unsigned long long>(snap.jobs[first].id), key_[first], probes);
  }
  return d;
}

}  // namespace mr::sched
