#include "jobs/hash_partitioner.h"

namespace mr::jobs {

uint64_t Fnv1a64(std::string_view bytes) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

uint32_t HashPartitioner::Partition(std::string_view key, uint32_t num_partitions) const {
  // Mix the high bits in: FNV's low bits are weak for short keys.
  uint64_t h = Fnv1a64(key);
  h ^= h >> 32;
  return static_cast<uint32_t>(h % num_partitions);
}

}  // namespace mr::jobs
