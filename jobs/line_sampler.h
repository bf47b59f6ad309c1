// Samples lines of input files at evenly spaced byte offsets (each offset moved to
// the next line start) for the sort job's range partitioner, reading them through the
// job's InputSource (jobs/input_source.h). Reads only a small window per sample, so
// planning a large input stays cheap. Thread-safe.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "jobs/input_source.h"

namespace mr::jobs {

// Cut points travel in every task assignment (job params), so their size must not grow
// with the data: each is truncated to a prefix of at most kMaxCutPointBytes, shorter when
// there are many, so that all of them together stay within kCutPointsBudgetBytes (at least
// one byte each). Truncation keeps them sorted, so a range partitioner over them still
// yields globally sorted output; only the balance between reducers can suffer, and only
// for keys sharing a prefix that long (Hadoop's TotalOrderPartitioner samples likewise).
inline constexpr size_t kMaxCutPointBytes = 1024;
inline constexpr size_t kCutPointsBudgetBytes = 64u << 10;

// About `total_samples` lines over `files` (source.List()'s, with their sizes), spread in
// proportion to file size (at least one per non-empty file). Lines are returned without
// their '\n' and cut to their first kMaxCutPointBytes bytes (all a cut point can use).
// Errors: the source's (a failed Read); IoError if a file shrank since it was listed.
Result<std::vector<std::string>> SampleLines(const InputSource& source, const std::vector<InputFile>& files,
                                             size_t total_samples);

// R-1 cut points at the quantiles of the sorted samples (none when no samples), each
// truncated as above.
std::vector<std::string> PickCutPoints(std::vector<std::string> samples, uint32_t reducers);

}  // namespace mr::jobs
