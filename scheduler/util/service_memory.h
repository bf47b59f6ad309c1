// ServiceMemory: which job a sharing policy (fair, klps) served last, so that
// among jobs equally far below their share the least recently served gets the
// next slot. Without it ties go by arrival and, when jobs outnumber slots, the
// oldest jobs keep every slot — FIFO, not sharing. With it, slots rotate
// round robin, the discrete form of processor sharing. Not thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>

#include "scheduler/util/slot_filler.h"
#include "scheduler/snapshot.h"

namespace mr::sched {

class ServiceMemory {
 public:
  // Sets each target's last_served from memory (0 = never served).
  void Apply(const Snapshot& snap, std::span<SlotTarget> targets) const;
  // Records the map assignments of `d` in order; forgets jobs that left.
  void Record(const Snapshot& snap, const Decision& d);

 private:
  std::unordered_map<JobId, uint64_t> last_served_;
  uint64_t serial_ = 0;
};

}  // namespace mr::sched
