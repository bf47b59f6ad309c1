// FileWriter: appends to a new file through a large buffer (few write syscalls
// for small records). Close() flushes and reports the first error; a writer
// destroyed without Close() leaves the file as is (callers remove it on failure).
// With checksums on, it keeps the CRC32C of the bytes appended since the last TakeCrc(),
// computed on the buffer just before each write (no second pass over the file).
// A file that a reader will map (map outputs, spills: the merges map them) is written in
// kMappedWriteBytes calls: the page cache makes folios as large as the writes, and a fault
// on a mapping maps the whole folio (docs/performance.md, "The sort's growth, read").
// Move-free, single-threaded.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace mr::worker {

class FileWriter {
 public:
  FileWriter() = default;
  ~FileWriter();
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;

  // A write call's size for a file that will be mapped (see above).
  static constexpr size_t kMappedWriteBytes = size_t{64} << 10;
  // Creates (truncates) path; `checksum`: keep a running CRC32C for TakeCrc().
  // `max_write`: the bytes of one write call, 0 for the whole buffer (1 MiB).
  Status Open(const std::string& path, bool checksum = false, size_t max_write = 0);
  void Append(std::string_view bytes);
  void AppendRecord(std::string_view key, std::string_view value);  // map_output.h encoding
  // Bytes appended so far (buffered or not).
  uint64_t size() const { return written_ + buf_.size(); }
  // CRC32C of the bytes appended since the previous TakeCrc() (or Open), then starts a new
  // segment: call it where a partition starts (discarding the value) and where it ends.
  // REQUIRES: opened with checksum = true.
  uint32_t TakeCrc();
  // First write error so far (writes are deferred, so errors surface late).
  const Status& status() const { return status_; }
  Status Close();

 private:
  static constexpr size_t kBufferBytes = 1 << 20;
  void MaybeFlush() {
    if (buf_.size() >= kBufferBytes) Flush();
  }
  void Flush();
  void HashPending();  // folds buf_[crc_pos_, end) into crc_


  int fd_ = -1;
  std::string path_;
  std::string buf_;
  uint64_t written_ = 0;
  bool checksum_ = false;
  size_t max_write_ = 0;  // 0: the whole buffer at once
  uint32_t crc_ = 0;      // of the current segment's bytes up to buf_[crc_pos_]
  size_t crc_pos_ = 0;    // bytes of buf_ already in crc_
  Status status_;
};

}  // namespace mr::worker
