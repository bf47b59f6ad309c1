// A partitioner over sorted cut points: partition i holds keys k with
// cuts[i-1] <= k < cuts[i] (bytewise order), so concatenating the parts in order
// is globally sorted. Cut points travel in job params hex-encoded (keys may hold
// any byte). Immutable after construction, thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "jobs/job.h"

namespace mr::jobs {

// "hex,hex,..." (empty string for no cuts).
std::string EncodeCutPoints(const std::vector<std::string>& cuts);
// InvalidArgument on bad hex or cut points out of order.
Result<std::vector<std::string>> DecodeCutPoints(std::string_view encoded);

class RangePartitioner final : public Partitioner {
 public:
  // REQUIRES: cuts sorted bytewise (duplicates allowed: they make empty partitions).
  explicit RangePartitioner(std::vector<std::string> cuts) : cuts_(std::move(cuts)) {}
  // With R partitions only the first R-1 cuts matter; keys past them go to R-1.
  uint32_t Partition(std::string_view key, uint32_t num_partitions) const override;

 private:
  std::vector<std::string> cuts_;
};

}  // namespace mr::jobs
