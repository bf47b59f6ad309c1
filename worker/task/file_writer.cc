#include "worker/task/file_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/crc32c.h"
#include "common/file_util.h"
#include "shuffle/map_output.h"

namespace mr::worker {

FileWriter::~FileWriter() {
  if (fd_ >= 0) ::close(fd_);
}

Status FileWriter::Open(const std::string& path, bool checksum, size_t max_write) {
  path_ = path;
  checksum_ = checksum;
  max_write_ = max_write;
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) status_ = Status::IoError("cannot create " + path + ": " + std::strerror(errno));
  buf_.reserve(kBufferBytes + 4096);
  return status_;
}

void FileWriter::Append(std::string_view bytes) {
  buf_.append(bytes);
  MaybeFlush();
}

void FileWriter::AppendRecord(std::string_view key, std::string_view value) {
  shuffle::AppendRecord(key, value, &buf_);
  MaybeFlush();
}

void FileWriter::HashPending() {
  crc_ = crc32c::Extend(crc_, buf_.data() + crc_pos_, buf_.size() - crc_pos_);
  crc_pos_ = buf_.size();
}

uint32_t FileWriter::TakeCrc() {
  HashPending();
  const uint32_t crc = crc_;
  crc_ = 0;
  return crc;
}

void FileWriter::Flush() {
  // The bytes are hashed while still in this buffer (hot in cache), just before the write.
  if (checksum_) HashPending();
  crc_pos_ = 0;
  const size_t piece = max_write_ > 0 ? max_write_ : buf_.size();
  const std::string_view all(buf_);
  for (size_t at = 0; at < all.size() && status_.ok(); at += piece) {
    status_ = WriteAllToFd(fd_, all.substr(at, piece), path_);
  }
  written_ += buf_.size();
  buf_.clear();
}

Status FileWriter::Close() {
  if (fd_ < 0) return status_.ok() ? Status::IoError("file not open: " + path_) : status_;
  Flush();
  if (::close(fd_) != 0 && status_.ok()) {
    status_ = Status::IoError("cannot close " + path_ + ": " + std::strerror(errno));
  }
  fd_ = -1;
  return status_;
}

}  // namespace mr::worker
