// The default partitioner: FNV-1a 64 of the key modulo R. Unlike std::hash it is
// the same in every process and build, so a map attempt re-run on another worker
// sends each key to the same reducer. Stateless, thread-safe.
#pragma once

#include <cstdint>
#include <string_view>

#include "jobs/job.h"

namespace mr::jobs {

uint64_t Fnv1a64(std::string_view bytes);

class HashPartitioner final : public Partitioner {
 public:
  uint32_t Partition(std::string_view key, uint32_t num_partitions) const override;
};

}  // namespace mr::jobs
