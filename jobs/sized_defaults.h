// SizedDefaults: the split size, reducer count and sort buffer a job gets when the user
// names none of them, derived from the input's size and the cluster's slots, as Hadoop
// derives the number of maps from the input's blocks (docs/performance.md, "Defaults that
// follow the input"). Small inputs keep the fixed defaults (32 MiB splits, one reducer,
// 100 MiB sort buffer), so a small job still writes one part file; from kSizedInputBytes on:
//   reducers    = the cluster's reduce slots (every reduce slot merges from the start),
//   split size  = input / (kMapWaves x map slots), rounded up to a MiB, within
//                 [32 MiB, 128 MiB] (a few waves balance the slots; large splits mean few
//                 runs for each reducer to merge and, for word count, one vocabulary flush
//                 per split),
//   sort buffer = max(100 MiB, 1.5 x split size): one split's records and their 32-byte
//                 entries fit, so a map never spills; bounded by the split cap, not the input.
#pragma once

#include <cstdint>

namespace mr::jobs {

inline constexpr uint64_t kSizedInputBytes = uint64_t{64} << 20;
inline constexpr uint64_t kMapWaves = 4;

// Slots over the whole cluster (unified slots counted on both sides); 0 means unknown and
// is taken as 1.
struct ClusterSlots {
  uint32_t map = 0;
  uint32_t reduce = 0;
};

struct SizedDefaults {
  uint64_t split_bytes = uint64_t{32} << 20;
  uint32_t reducers = 1;
  uint64_t sort_buffer_bytes = uint64_t{100} << 20;
};

SizedDefaults DeriveSizedDefaults(uint64_t input_bytes, ClusterSlots slots);

}  // namespace mr::jobs
