// FileWriter: appends to a new file through a large buffer (few write syscalls
// for small records). Close() flushes and reports the first error; a writer
// destroyed without Close() leaves the file as is (callers remove it on failure).
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

  // Creates (truncates) path.
  Status Open(const std::string& path);
  void Append(std::string_view bytes);
  void AppendRecord(std::string_view key, std::string_view value);  // map_output.h encoding
  // Bytes appended so far (buffered or not).
  uint64_t size() const { return written_ + buf_.size(); }
  // First write error so far (writes are deferred, so errors surface late).
  const Status& status() const { return status_; }
  Status Close();

 private:
  static constexpr size_t kBufferBytes = 1 << 20;
  void MaybeFlush() {
    if (buf_.size() >= kBufferBytes) Flush();
  }
  void Flush();

  int fd_ = -1;
  std::string path_;
  std::string buf_;
  uint64_t written_ = 0;
  Status status_;
};

}  // namespace mr::worker
