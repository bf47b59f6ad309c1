#include "jobs/sized_defaults.h"

#include <algorithm>

namespace mr::jobs {

SizedDefaults DeriveSizedDefaults(uint64_t input_bytes, ClusterSlots slots) {
  SizedDefaults d;
  if (input_bytes < kSizedInputBytes) return d;
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  constexpr uint64_t kMinSplit = 32 * kMiB, kMaxSplit = 128 * kMiB;
  const uint64_t map_slots = std::max<uint32_t>(1, slots.map);
  const uint64_t per_wave = input_bytes / (kMapWaves * map_slots);
  const uint64_t split = (per_wave + kMiB - 1) / kMiB * kMiB;
  d.split_bytes = std::clamp(split, kMinSplit, kMaxSplit);
  d.reducers = std::clamp<uint32_t>(slots.reduce, 1, 10000);
  d.sort_buffer_bytes = std::max(d.sort_buffer_bytes, d.split_bytes + d.split_bytes / 2);
  return d;
}

}  // namespace mr::jobs
