#include "scheduler/util/job_sizes.h"

#include <algorithm>
#include <limits>

namespace mr::sched {

Capacity CapacityOf(const Snapshot& snap, double uncapped_link_rate) {
  Capacity c;
  double slots = 0;
  for (const WorkerView& w : snap.workers) {
    slots += std::max(0, w.map_slots + w.unified_slots) * std::max(0.0, w.speed);
  }
  c.map_slot_speed = slots > 0 ? slots : 1;
  if (snap.shuffle_capacity > 0) {
    c.shuffle_bytes_per_sec = snap.shuffle_capacity;
  } else if (uncapped_link_rate > 0) {
    double links = 0;
    for (const WorkerView& w : snap.workers) {
      links += w.shuffle_bandwidth > 0 ? w.shuffle_bandwidth : uncapped_link_rate;
    }
    c.shuffle_bytes_per_sec = links > 0 ? links : uncapped_link_rate;
  } else {
    c.shuffle_bytes_per_sec = std::numeric_limits<double>::infinity();
  }
  return c;
}

JobSize SizeOf(const JobView& job, const Capacity& cap) {
  JobSize s;
  const SizeEstimate& e = job.estimate;
  if (e.source == EstimateSource::kNone) return s;
  s.known = true;
  s.x = std::max(0.0, e.map_seconds_total) / cap.map_slot_speed;
  s.x_remaining = std::max(0.0, e.map_seconds_remaining) / cap.map_slot_speed;
  s.y = std::max(0.0, e.shuffle_bytes_total) / cap.shuffle_bytes_per_sec;
  s.y_remaining = std::max(0.0, e.shuffle_bytes_remaining) / cap.shuffle_bytes_per_sec;
  return s;
}

}  // namespace mr::sched
