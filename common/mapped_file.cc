#include "common/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mr {

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    if (base_ != nullptr) ::munmap(base_, mapped_);
    base_ = other.base_;
    mapped_ = other.mapped_;
    view_ = other.view_;
    other.base_ = nullptr;
    other.mapped_ = 0;
    other.view_ = {};
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (base_ != nullptr) ::munmap(base_, mapped_);
}

Result<MappedFile> MappedFile::Open(const std::string& path, uint64_t offset, uint64_t length) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return Status::NotFound("no such file: " + path);
    return Status::IoError("cannot open " + path + ": " + std::strerror(errno));
  }
  struct stat st{};
  if (::fstat(fd, &st) != 0) {
    Status s = Status::IoError("cannot stat " + path + ": " + std::strerror(errno));
    ::close(fd);
    return s;
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (length == kToEnd) length = offset <= size ? size - offset : 0;
  if (offset > size || size - offset < length) {
    ::close(fd);
    return Status::IoError("range past end of file: " + path);
  }
  MappedFile f;
  if (length == 0) {
    ::close(fd);
    return f;
  }
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t start = offset / page * page;
  f.mapped_ = static_cast<size_t>(offset - start + length);
  void* p = ::mmap(nullptr, f.mapped_, PROT_READ, MAP_PRIVATE, fd, static_cast<off_t>(start));
  int err = errno;
  ::close(fd);
  if (p == MAP_FAILED) {
    f.mapped_ = 0;
    return Status::IoError("cannot mmap " + path + ": " + std::strerror(err));
  }
  ::madvise(p, f.mapped_, MADV_SEQUENTIAL);
  f.base_ = p;
  f.view_ = std::string_view(static_cast<const char*>(p) + (offset - start), length);
  return f;
}

}  // namespace mr
