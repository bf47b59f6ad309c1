#include "common/file_util.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

namespace mr {

namespace fs = std::filesystem;

namespace {
Status Errno(std::string_view what, const std::string& path) {
  return Status::IoError(std::string(what) + " " + path + ": " + std::strerror(errno));
}
}  // namespace

Result<std::string> ReadFileToString(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return Status::NotFound("no such file: " + path);
    return Errno("cannot open", path);
  }
  std::string out;
  struct stat st{};
  if (::fstat(fd, &st) == 0 && st.st_size > 0) out.reserve(static_cast<size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      Status s = Errno("cannot read", path);
      ::close(fd);
      return s;
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

Status WriteAllToFd(int fd, std::string_view data, const std::string& path) {
  const char* p = data.data();
  size_t left = data.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return path.empty() ? Status::IoError(std::string("cannot write: ") + std::strerror(errno))
                          : Errno("cannot write", path);
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return Status::Ok();
}

Status WriteStringToFile(const std::string& path, std::string_view data) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("cannot create", path);
  Status s = WriteAllToFd(fd, data, path);
  if (::close(fd) != 0 && s.ok()) s = Errno("cannot close", path);
  return s;
}

namespace {
std::atomic<uint64_t> atomic_writes_synced{0};

// The end of every atomic write: `s` is how writing `fd` (open on `tmp`) went; syncs it if
// asked, closes it, renames `tmp` to `path`, and on any failure removes `tmp`.
Status SyncCloseRename(int fd, const std::string& tmp, const std::string& path, bool sync, Status s) {
  if (s.ok() && sync) {
    if (::fsync(fd) != 0) {
      s = Errno("cannot sync", tmp);
    } else {
      atomic_writes_synced.fetch_add(1, std::memory_order_relaxed);
    }
  }
  if (::close(fd) != 0 && s.ok()) s = Errno("cannot close", tmp);
  if (s.ok() && ::rename(tmp.c_str(), path.c_str()) != 0) s = Errno("cannot rename", tmp);
  if (!s.ok()) ::unlink(tmp.c_str());
  return s;
}

Status WriteAndRename(const std::string& path, std::string_view data, bool sync) {
  std::string tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("cannot create", tmp);
  return SyncCloseRename(fd, tmp, path, sync, WriteAllToFd(fd, data, tmp));
}
}  // namespace

Status WriteFileAtomically(const std::string& path, std::string_view data) { return WriteAndRename(path, data, true); }

namespace {
// Copies the rest of `in` to `out`: copy_file_range while the kernel takes it, then (from
// where it stopped: a file system or kernel without it says so before copying anything)
// read and write.
Status CopyFd(int in, int out, const std::string& from, const std::string& to) {
  bool kernel = true;
  for (;;) {
    if (kernel) {
      const ssize_t n = ::copy_file_range(in, nullptr, out, nullptr, size_t{1} << 30, 0);
      if (n > 0) continue;
      if (n == 0) return Status::Ok();
      if (errno == EINTR) continue;
      if (errno != EXDEV && errno != ENOSYS && errno != EINVAL && errno != EOPNOTSUPP && errno != EPERM) {
        return Errno("cannot copy to", to);
      }
      kernel = false;
    }
    char buf[1 << 16];
    const ssize_t n = ::read(in, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Errno("cannot read", from);
    if (n == 0) return Status::Ok();
    MR_RETURN_IF_ERROR(WriteAllToFd(out, std::string_view(buf, static_cast<size_t>(n)), to));
  }
}
}  // namespace

Status CopyFileAtomically(const std::string& from, const std::string& to) {
  const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    if (errno == ENOENT) return Status::NotFound("no such file: " + from);
    return Errno("cannot open", from);
  }
  const std::string tmp = to + ".tmp";
  const int out = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0) {
    Status s = Errno("cannot create", tmp);
    ::close(in);
    return s;
  }
  Status s = CopyFd(in, out, from, tmp);
  ::close(in);
  return SyncCloseRename(out, tmp, to, /*sync=*/true, std::move(s));
}

Status WriteFileAtomicallyUnsynced(const std::string& path, std::string_view data) {
  return WriteAndRename(path, data, false);
}

uint64_t AtomicWritesSynced() { return atomic_writes_synced.load(std::memory_order_relaxed); }

Status AppendToFile(const std::string& path, std::string_view data) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("cannot open", path);
  Status s = WriteAllToFd(fd, data, path);
  if (::close(fd) != 0 && s.ok()) s = Errno("cannot close", path);
  return s;
}

Status MakeDirs(const std::string& path) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) return Status::IoError("cannot create directory " + path + ": " + ec.message());
  return Status::Ok();
}

Status RemoveAll(const std::string& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
  if (ec) return Status::IoError("cannot remove " + path + ": " + ec.message());
  return Status::Ok();
}

Status RenameFile(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) return Errno("cannot rename " + from + " to", to);
  return Status::Ok();
}

bool PathExists(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0;
}

bool IsDirectory(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

Result<uint64_t> FileSize(const std::string& path) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Status::NotFound("no such file: " + path);
    return Errno("cannot stat", path);
  }
  return static_cast<uint64_t>(st.st_size);
}

Result<std::vector<std::string>> ListDir(const std::string& path) {
  std::error_code ec;
  std::vector<std::string> names;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  if (ec) return Status::IoError("cannot list " + path + ": " + ec.message());
  std::sort(names.begin(), names.end());
  return names;
}

std::string JoinPath(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  std::string out(a);
  if (out.back() != '/') out += '/';
  out += b;
  return out;
}

std::string AbsolutePath(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  if (ec) return path;
  return p.lexically_normal().string();
}

TempDir::TempDir(std::string_view prefix) {
  std::string tmpl = (fs::temp_directory_path() / (std::string(prefix) + "-XXXXXX")).string();
  char* p = ::mkdtemp(tmpl.data());
  path_ = p ? std::string(p) : std::string();
}

TempDir::~TempDir() {
  if (!path_.empty()) {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
}

}  // namespace mr
