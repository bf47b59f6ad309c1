// Small file helpers returning Status: whole-file read/write, atomic replace,
// directory creation and removal. Paths are std::string (POSIX).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr {

Result<std::string> ReadFileToString(const std::string& path);
Status WriteStringToFile(const std::string& path, std::string_view data);
// Writes all of `data` to fd (retrying short writes and EINTR). IoError "cannot write PATH:
// ..." on failure; `path` only names the file in the message (may be empty).
Status WriteAllToFd(int fd, std::string_view data, const std::string& path);
// Writes to path + ".tmp", fsyncs, renames over path.
Status WriteFileAtomically(const std::string& path, std::string_view data);
// The same without the fsync: readers never see a partial file, but a crash of the machine
// may lose it. For what is void once its writer is gone (a running daemon's address).
Status WriteFileAtomicallyUnsynced(const std::string& path, std::string_view data);
// Copies the file `from` to `to` as WriteFileAtomically writes (to + ".tmp", fsync, rename):
// in the kernel where it can (copy_file_range: no bytes through user space, a reflink on file
// systems that share extents), else by read and write. Counts in AtomicWritesSynced.
Status CopyFileAtomically(const std::string& from, const std::string& to);
// How many files WriteFileAtomically has fsynced in this process so far: what a sync policy
// (a map output index synced or not, WorkerOptions::sync_map_outputs) can be observed by.
// Thread-safe; a caller compares it before and after what it runs.
uint64_t AtomicWritesSynced();
Status AppendToFile(const std::string& path, std::string_view data);
Status MakeDirs(const std::string& path);
Status RemoveAll(const std::string& path);
Status RenameFile(const std::string& from, const std::string& to);
bool PathExists(const std::string& path);
bool IsDirectory(const std::string& path);
Result<uint64_t> FileSize(const std::string& path);
// Sorted names (not paths) of the entries of a directory.
Result<std::vector<std::string>> ListDir(const std::string& path);
std::string JoinPath(std::string_view a, std::string_view b);
// Absolute, lexically normalised form of path (relative to the current directory).
std::string AbsolutePath(const std::string& path);

// RAII temporary directory for tests and tools; removed on destruction.
class TempDir {
 public:
  explicit TempDir(std::string_view prefix = "mrlab");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace mr
