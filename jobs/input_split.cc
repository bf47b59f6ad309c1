#include "jobs/input_split.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/file_util.h"

namespace mr::jobs {

namespace {

Status ErrnoStatus(const std::string& what, const std::string& path) {
  if (errno == ENOENT) return Status::NotFound("no such input: " + path);
  return Status::IoError(what + " " + path + ": " + std::strerror(errno));
}

// Owns a read-only fd.
class ReadFd {
 public:
  explicit ReadFd(int fd) : fd_(fd) {}
  ~ReadFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  ReadFd(const ReadFd&) = delete;
  ReadFd& operator=(const ReadFd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Position just after the first '\n' at or after `from`, or `size` if none.
Result<uint64_t> NextLineStart(int fd, const std::string& path, uint64_t from, uint64_t size) {
  char buf[64 * 1024];
  uint64_t pos = from;
  while (pos < size) {
    ssize_t n = ::pread(fd, buf, sizeof buf, static_cast<off_t>(pos));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoStatus("cannot read", path);
    if (n == 0) return Status::IoError("input shrank while splitting: " + path);
    const void* nl = std::memchr(buf, '\n', static_cast<size_t>(n));
    if (nl != nullptr) return pos + static_cast<uint64_t>(static_cast<const char*>(nl) - buf) + 1;
    pos += static_cast<uint64_t>(n);
  }
  return size;
}

Status SplitFile(const std::string& path, uint32_t file_index, uint64_t split_bytes,
                 std::vector<Split>* out) {
  ReadFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return ErrnoStatus("cannot open", path);
  struct stat st{};
  if (::fstat(fd.get(), &st) != 0) return ErrnoStatus("cannot stat", path);
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  uint64_t start = 0;
  while (start < size) {
    uint64_t end = size;
    if (size - start > split_bytes) {
      // The split must end after a '\n' at or past the nominal cut - 1, so a
      // line ending exactly at the cut closes this split.
      MR_ASSIGN_OR_RETURN(end, NextLineStart(fd.get(), path, start + split_bytes - 1, size));
    }
    out->push_back(Split{path, file_index, start, end - start});
    start = end;
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<std::string>> ExpandInputs(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const auto& input : inputs) {
    struct stat st{};
    if (::stat(input.c_str(), &st) != 0) return ErrnoStatus("cannot stat", input);
    if (!S_ISDIR(st.st_mode)) {
      files.push_back(input);
      continue;
    }
    MR_ASSIGN_OR_RETURN(std::vector<std::string> names, ListDir(input));
    for (const auto& name : names) {
      if (name.empty() || name[0] == '_' || name[0] == '.') continue;
      std::string path = JoinPath(input, name);
      struct stat est{};
      if (::stat(path.c_str(), &est) == 0 && S_ISREG(est.st_mode)) files.push_back(path);
    }
  }
  return files;
}

Result<std::vector<Split>> ComputeSplits(const std::vector<std::string>& inputs,
                                         uint64_t split_bytes) {
  if (split_bytes == 0) return Status::InvalidArgument("split size must be > 0");
  MR_ASSIGN_OR_RETURN(std::vector<std::string> files, ExpandInputs(inputs));
  std::vector<Split> splits;
  for (size_t i = 0; i < files.size(); ++i) {
    MR_RETURN_IF_ERROR(SplitFile(files[i], static_cast<uint32_t>(i), split_bytes, &splits));
  }
  return splits;
}

}  // namespace mr::jobs
