// The papers' job sizes in this cluster's units: x = map work divided by the
// cluster's map capacity, y = shuffle bytes divided by the shuffle capacity, so
// both are seconds at full capacity and directly comparable (ALGORITHMS.md §1).
// Pure functions of a Snapshot; thread-safe.
#pragma once

#include "scheduler/snapshot.h"

namespace mr::sched {

// Shuffle capacity assumed when the snapshot says 0 (= unlimited). Only the
// ratio y/x matters to the policies, so a fixed nominal link keeps them defined.
inline constexpr double kNominalShuffleBytesPerSec = 1e9;

struct Capacity {
  double map_slot_speed = 1;         // sum over workers of (map + unified slots) * speed
  double shuffle_bytes_per_sec = 1;  // snapshot's capacity, or the nominal value
};
Capacity CapacityOf(const Snapshot& snap);

struct JobSize {
  bool known = false;  // false when the estimate source is kNone
  double x = 0, y = 0;                  // original (total) sizes, seconds
  double x_remaining = 0, y_remaining = 0;
};
JobSize SizeOf(const JobView& job, const Capacity& cap);

}  // namespace mr::sched
