// Input splits: byte ranges of input files aligned to line boundaries, computed on the
// master through the job's InputSource (jobs/input_source.h). Each split starts at the
// beginning of a line and ends just after a '\n' or at EOF, so every line belongs to exactly
// one split. Thread-safe (pure functions over a thread-safe source).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "jobs/input_source.h"

namespace mr::jobs {

struct Split {
  std::string path;
  uint32_t file_index = 0;  // index of path in InputSource::List(inputs)
  uint64_t offset = 0;
  uint64_t length = 0;
  // The host that holds the split's bytes (InputFile::host); "" = any process can read them.
  // Carried to the worker's MapTaskSpec and kept in the store; map placement prefers a worker
  // on this host (sched::MapLocality, docs/multi-host.md "Locality").
  std::string host;
  // The byte range the split was cut as before its ends moved to line starts (Hadoop's
  // FileSplit start and length, which a streaming task sees as mapreduce_map_input_start and
  // _length); nominal_length 0 = the same as offset and length.
  uint64_t nominal_offset = 0;
  uint64_t nominal_length = 0;
};

// Splits of about split_bytes each (at least one line; the last split of a file may be
// shorter) of the files source.List(inputs) names, in order. Empty files give no split; a
// gzip file (CodecOf) is one split, whole, as it cannot be split; a file of a codec mrlab
// cannot read is InvalidArgument (CheckInputCodec).
// Every file is opened (a zero-length Read) even when it is not read, so an unreadable input
// fails here, at submit, not in its map attempts. Errors: InvalidArgument for split_bytes 0;
// List's and Read's errors (NotFound naming a missing input); IoError if a file shrank.
Result<std::vector<Split>> ComputeSplits(const InputSource& source, const std::vector<std::string>& inputs,
                                         uint64_t split_bytes);

}  // namespace mr::jobs
