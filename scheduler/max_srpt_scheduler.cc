#include "scheduler/max_srpt_scheduler.h"

#include <algorithm>
#include <limits>

#include "scheduler/job_sizes.h"
#include "scheduler/policy_util.h"
#include "scheduler/slot_filler.h"

namespace mr::sched {

Decision MaxSrptScheduler::Schedule(const Snapshot& snap) {
  Decision d;
  Capacity cap = CapacityOf(snap);
  std::vector<JobSize> sizes;
  std::vector<double> key;
  sizes.reserve(snap.jobs.size());
  key.reserve(snap.jobs.size());
  for (const JobView& job : snap.jobs) {
    sizes.push_back(SizeOf(job, cap));
    const JobSize& s = sizes.back();
    key.push_back(s.known ? std::max(s.x_remaining, s.y_remaining)
                          : std::numeric_limits<double>::infinity());
  }
  std::vector<int> order = OrderByKey(ArrivalOrder(snap), key);

  SlotFiller filler(snap, &d);
  filler.PlaceReduces(order);
  int probes = GiveProbes(filler, order, sizes);
  filler.FillInOrder(order);
  int head = FirstWithShuffleData(snap, order);
  if (head >= 0) d.shuffle_shares[snap.jobs[head].id] = 1.0;

  if (order.empty()) {
    d.note = "maxsrpt: no jobs";
  } else {
    d.note = Format("maxsrpt: job %llu first (max(x,y)=%.3gs), %d probes",
                    static_cast<unsigned long long>(snap.jobs[order[0]].id), key[order[0]], probes);
  }
  return d;
}

}  // namespace mr::sched
