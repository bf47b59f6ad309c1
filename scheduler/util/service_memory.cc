#include "scheduler/util/service_memory.h"

namespace mr::sched {

void ServiceMemory::Apply(const Snapshot& snap, std::span<SlotTarget> targets) const {
  if (last_served_.empty()) return;
  for (SlotTarget& t : targets) {
    auto it = last_served_.find(snap.jobs[t.job].id);
    t.last_served = it == last_served_.end() ? 0 : it->second;
  }
}

void ServiceMemory::Record(const Snapshot& snap, const Decision& d) {
  for (const Assignment& a : d.assignments) {
    if (a.kind == TaskKind::kMap) last_served_[a.job] = ++serial_;
  }
  // Jobs leave; keep the memory about the size of the live job set.
  if (last_served_.size() > 2 * snap.jobs.size() + 64) {
    std::unordered_map<JobId, uint64_t> live;
    for (const JobView& j : snap.jobs) {
      auto it = last_served_.find(j.id);
      if (it != last_served_.end()) live.emplace(it->first, it->second);
    }
    last_served_.swap(live);
  }
}

}  // namespace mr::sched
