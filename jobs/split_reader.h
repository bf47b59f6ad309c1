// SplitReader: a map task's way through its split, in runs of whole lines, holding a bounded
// window of it at a time whatever the split's size: a plain file is read (for the local
// source, mapped) kWindowBytes at a time, each window let go before the next; a gzip file
// (CodecOf) is inflated as it is read, concatenated members included. A line longer than a
// window is gathered whole. docs/streaming.md, "Records in, records out". Not thread-safe: one reader per
// task.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "jobs/input_source.h"
#include "jobs/input_split.h"

namespace mr::jobs {

class SplitReader {
 public:
  // Bytes of the file asked of the source per read.
  static constexpr uint64_t kWindowBytes = 4 << 20;

  // `source` must outlive the reader. A missing file is NotFound "no such input: PATH",
  // here for an empty split, else from the first Next (which makes the first read: a split
  // is read once, window by window, and never probed).
  static Result<std::unique_ptr<SplitReader>> Open(const InputSource& source, const Split& split);
  virtual ~SplitReader() = default;

  // The next run of whole lines: each ends with '\n' except the split's last line if the
  // file does not end with one. *offset is the run's byte offset in the file (in the
  // decompressed stream for gzip). Empty at the end of the split. Valid until the next call.
  // IoError if the file holds fewer bytes than the split (it changed since it was split) or
  // is not valid gzip.
  Result<std::string_view> Next(uint64_t* offset);

  // Bytes of the split consumed so far (compressed bytes for gzip), in [0, split length].
  uint64_t consumed() const { return consumed_; }

 protected:
  SplitReader(const InputSource& source, const Split& split) : source_(source), split_(split) {}
  // The next bytes of the file's contents after the last chunk (decompressed for gzip);
  // empty at the split's end. Valid until the next call.
  virtual Result<std::string_view> NextChunk() = 0;
  // The next raw window of the split's bytes: IoError if the file is short.
  Result<std::string_view> NextWindow();

  const InputSource& source_;
  const Split split_;
  uint64_t consumed_ = 0;  // raw bytes of the split read so far

 private:
  std::unique_ptr<InputBytes> window_;
  std::string_view chunk_;   // what is left of the current chunk
  uint64_t chunk_offset_ = 0;  // file offset of chunk_[0]
  std::string carry_;        // a line begun in an earlier chunk
  uint64_t carry_offset_ = 0;
  std::string out_;          // the line handed out when it spans chunks
  bool ended_ = false;
};

}  // namespace mr::jobs
