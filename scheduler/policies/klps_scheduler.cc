#include "scheduler/policies/klps_scheduler.h"

#include "scheduler/util/policy_util.h"

namespace mr::sched {

Decision KlpsScheduler::Schedule(const Snapshot& snap) {
  Decision d;
  ArrivalOrder(snap, &order_);
  SlotFiller filler(snap, &d, &buffers_);
  filler.PlaceReduces(order_);

  active_.clear();
  double capacity = filler.free_map_slots();
  for (int j : order_) {
    if (static_cast<int>(active_.size()) >= k_) break;
    if (filler.running_maps(j) + filler.pending_maps(j) == 0) continue;  // left the map station
    active_.push_back(j);
    capacity += filler.running_maps(j);
  }
  items_.clear();
  for (int j : active_) items_.push_back({1, 0, double(filler.running_maps(j) + filler.pending_maps(j))});
  WaterFill(items_, capacity, &shares_, &water_scratch_);
  targets_.clear();
  d.map_shares.reserve(active_.size());
  for (size_t i = 0; i < active_.size(); ++i) {
    targets_.push_back({active_[i], shares_[i], 0});
    if (shares_[i] > 0) {
      d.map_shares.insert_or_assign(d.map_shares.end(), snap.jobs[active_[i]].id, shares_[i]);
    }
  }
  memory_.Apply(snap, targets_);
  FillTowardTargets(filler, targets_, &fill_scratch_);
  memory_.Record(snap, d);

  int with_data = 0;
  for (const JobView& j : snap.jobs) with_data += j.shuffle_bytes_available > 0;
  share_pairs_.clear();
  for (const JobView& j : snap.jobs) {
    if (j.shuffle_bytes_available > 0) share_pairs_.emplace_back(j.id, 1.0 / with_data);
  }
  AddShares(share_pairs_, &d.shuffle_shares);
  d.note = Format("klps: %zu of %zu jobs share %.0f map slots (k=%d)", active_.size(),
                  snap.jobs.size(), capacity, k_);
  return d;
}

}  // namespace mr::sched
