// Input splits: byte ranges of input files aligned to line boundaries, computed
// on the master. Each split starts at the beginning of a line and ends just after
// a '\n' or at EOF, so every line belongs to exactly one split. Thread-safe
// (pure functions over the file system).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace mr::jobs {

struct Split {
  std::string path;
  uint32_t file_index = 0;  // index of path in ExpandInputs(inputs)
  uint64_t offset = 0;
  uint64_t length = 0;
};

// The regular files behind `inputs`, in order: a file stays itself, a directory
// becomes its regular files sorted by name, skipping names that start with '_' or
// '.' (as Hadoop does). A missing input is NotFound naming it.
Result<std::vector<std::string>> ExpandInputs(const std::vector<std::string>& inputs);

// Splits of about split_bytes each (at least one line; the last split of a file
// may be shorter). Empty files give no split. REQUIRES: split_bytes > 0.
Result<std::vector<Split>> ComputeSplits(const std::vector<std::string>& inputs,
                                         uint64_t split_bytes);

}  // namespace mr::jobs
