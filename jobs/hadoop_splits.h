// Input splits as Hadoop Streaming cuts them (the old API's FileInputFormat.getSplits with
// TextInputFormat): a goal size of the total input / the maps asked for, capped by the block
// size, never below the minimum; a file is cut into splits of that size while more than 1.1
// of one remains; a gzip file is one split; an empty file is one empty split. Each split is
// then moved to line starts as Hadoop's LineRecordReader reads it: a line belongs to the
// split in which the byte before its first byte lies (the first line to the first split),
// lines ending at '\n', '\r' or "\r\n". The cut (nominal) range is kept in
// Split::nominal_offset/length. docs/streaming.md, "Splits". Thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "jobs/input_source.h"
#include "jobs/input_split.h"

namespace mr::jobs {

struct HadoopSplitRule {
  uint32_t maps = 2;                          // mapreduce.job.maps (0 reads as 1)
  uint64_t block_size = uint64_t{128} << 20;  // dfs.blocksize
  uint64_t min_size = 1;                      // mapreduce.input.fileinputformat.split.minsize
};

// The nominal [offset, offset + length) ranges Hadoop cuts a file of `size` bytes into with
// split size `split_size` (>= 1): pure arithmetic.
std::vector<std::pair<uint64_t, uint64_t>> HadoopCuts(uint64_t size, uint64_t split_size);

// The splits of source.List(inputs) under `rule`, in map order. Errors as ComputeSplits.
Result<std::vector<Split>> ComputeHadoopSplits(const InputSource& source, const std::vector<std::string>& inputs,
                                               const HadoopSplitRule& rule);

}  // namespace mr::jobs
