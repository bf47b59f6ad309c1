// Reading one input file's lines through its InputSource a window at a time, for the
// master's scans that must not read the whole file: finding line starts to cut splits
// (jobs/input_split.h) and sampling lines (jobs/line_sampler.h). A window is one
// InputSource::Read (an mmap of the range for the local source), kept while the scan stays
// inside it. Not thread-safe: one reader per scan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "common/status.h"
#include "jobs/input_source.h"

namespace mr::jobs {

class InputLineReader {
 public:
  // Bytes asked of the source per read.
  static constexpr uint64_t kWindowBytes = 64 << 10;

  // `source` must outlive the reader; `file` is one of source.List()'s files.
  InputLineReader(const InputSource& source, InputFile file) : source_(source), file_(std::move(file)) {}

  // From `pos`, consumes the line up to and including its '\n' (or to the end of the file),
  // appending at most `keep` bytes of it, without the '\n', to *line when line is not null.
  // Returns the position after it: the next line's start, or the file's size. IoError if
  // the file holds fewer bytes than its listed size (it shrank since it was listed); the
  // source's error if a read fails.
  Result<uint64_t> SkipLine(uint64_t pos, size_t keep = 0, std::string* line = nullptr);

 private:
  // Makes the window hold the byte at `pos` (< file size).
  Status Fill(uint64_t pos);

  const InputSource& source_;
  const InputFile file_;
  std::unique_ptr<InputBytes> window_;  // null before the first read
  uint64_t window_start_ = 0;           // file offset of window_->data()[0]
};

}  // namespace mr::jobs
