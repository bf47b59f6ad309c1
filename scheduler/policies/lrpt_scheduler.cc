#include "scheduler/policies/lrpt_scheduler.h"

#include <algorithm>
#include <limits>

#include "scheduler/util/policy_util.h"
#include "scheduler/util/task_placer.h"

namespace mr::sched {
namespace {

// Maps left: not all done, or some still pending, queued or running. Reduces wait for them.
bool MapsLeft(const JobView& job) {
  return job.maps_done < job.maps_total || !job.pending_maps.empty() || !job.queued_maps.empty() ||
         job.maps_running > 0;
}

// Remaining work, negated so that the largest sorts first; unknown map size sorts last.
double Key(const JobView& job) {
  const SizeEstimate& e = job.estimate;
  if (e.source == EstimateSource::kNone && MapsLeft(job)) {
    return std::numeric_limits<double>::infinity();
  }
  const double map = e.source == EstimateSource::kNone ? 0 : e.map_seconds_remaining;
  const double reduce = e.reduce_source == EstimateSource::kNone ? 0 : e.reduce_seconds_remaining;
  return -(map + reduce);
}

int FreeSlots(const TaskPlacer& p) {
  return p.free(SlotKind::kMap) + p.free(SlotKind::kReduce) + p.free(SlotKind::kUnified);
}

// Job j takes every free slot it can use, dedicated slots before unified ones.
void TakeAll(TaskPlacer& p, const JobView& job, int j) {
  if (MapsLeft(job)) {
    while (p.PlaceMap(j, SlotKind::kMap)) {
    }
    while (p.PlaceMap(j, SlotKind::kUnified)) {
    }
  } else {
    while (p.PlaceReduce(j, SlotKind::kReduce)) {
    }
    while (p.PlaceReduce(j, SlotKind::kUnified)) {
    }
  }
}

}  // namespace

Decision LrptScheduler::Schedule(const Snapshot& snap) {
  Decision d;
  ArrivalOrder(snap, &arrival_);
  order_.Clear();
  for (int j : arrival_) order_.Add(j, Key(snap.jobs[j]));
  {
    TaskPlacer placer(snap, &d);
    order_.ForEachBlock([&] { return FreeSlots(placer) > 0; },
                        [&](std::span<const int> block) {
                          for (int j : block) TakeAll(placer, snap.jobs[j], j);
                        });
  }
  const int head = FirstWithShuffleData(snap, order_);
  if (head >= 0) d.shuffle_shares[snap.jobs[head].id] = 1.0;
  if (order_.size() == 0) {
    d.note = "lrpt: no jobs";
  } else {
    const int first = order_.Prefix(1)[0];
    d.note = Format("lrpt: job %llu first (remaining %.3gs)",
                    static_cast<unsigned long long>(snap.jobs[first].id),
                    std::max(0.0, -Key(snap.jobs[first])));
  }
  return d;
}

}  // namespace mr::sched
