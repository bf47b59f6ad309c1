// Samples lines of input files at evenly spaced byte offsets (each offset moved to
// the next line start) for the sort job's range partitioner. Reads only a small
// window per sample, so planning a large input stays cheap. Thread-safe.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"

namespace mr::jobs {

// About `total_samples` lines over all files, spread in proportion to file size
// (at least one per non-empty file). Lines are returned without their '\n'.
Result<std::vector<std::string>> SampleLines(const std::vector<std::string>& files,
                                             size_t total_samples);

// R-1 cut points at the quantiles of the sorted samples (none when no samples).
std::vector<std::string> PickCutPoints(std::vector<std::string> samples, uint32_t reducers);

}  // namespace mr::jobs
