#include "scheduler/klps_scheduler.h"

#include "scheduler/policy_util.h"
#include "scheduler/slot_filler.h"
#include "scheduler/water_fill.h"

namespace mr::sched {

Decision KlpsScheduler::Schedule(const Snapshot& snap) {
  Decision d;
  std::vector<int> order = ArrivalOrder(snap);
  SlotFiller filler(snap, &d);
  filler.PlaceReduces(order);

  std::vector<int> active;
  double capacity = filler.free_map_slots();
  for (int j : order) {
    if (static_cast<int>(active.size()) >= k_) break;
    if (filler.running_maps(j) + filler.pending_maps(j) == 0) continue;  // left the map station
    active.push_back(j);
    capacity += filler.running_maps(j);
  }
  std::vector<FairItem> items;
  items.reserve(active.size());
  for (int j : active) items.push_back({1, 0, double(filler.running_maps(j) + filler.pending_maps(j))});
  std::vector<double> shares = WaterFill(items, capacity);
  std::vector<SlotTarget> targets;
  targets.reserve(active.size());
  for (size_t i = 0; i < active.size(); ++i) {
    targets.push_back({active[i], shares[i], 0});
    if (shares[i] > 0) d.map_shares[snap.jobs[active[i]].id] = shares[i];
  }
  FillTowardTargets(filler, targets);

  int with_data = 0;
  for (const JobView& j : snap.jobs) with_data += j.shuffle_bytes_available > 0;
  for (const JobView& j : snap.jobs) {
    if (j.shuffle_bytes_available > 0) {
      d.shuffle_shares.emplace_hint(d.shuffle_shares.end(), j.id, 1.0 / with_data);
    }
  }
  d.note = Format("klps: %zu of %zu jobs share %.0f map slots (k=%d)", active.size(),
                  snap.jobs.size(), capacity, k_);
  return d;
}

}  // namespace mr::sched
