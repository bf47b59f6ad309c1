#include "shuffle/task_log.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <tuple>
#include <vector>

#include "common/file_util.h"
#include "shuffle/map_output.h"

namespace mr::shuffle {

std::string TaskLogRoot(const std::string& work_dir) { return JoinPath(work_dir, "logs"); }

std::string TaskLogJobDir(const std::string& work_dir, uint64_t job_id) {
  return JoinPath(TaskLogRoot(work_dir), "j" + std::to_string(job_id));
}

std::string TaskLogPath(const std::string& work_dir, uint64_t job_id, bool is_map, uint32_t index,
                        uint32_t attempt) {
  char name[48];
  std::snprintf(name, sizeof name, "%c-%05u-%u.log", is_map ? 'm' : 'r', index, attempt);
  return JoinPath(TaskLogJobDir(work_dir, job_id), name);
}

namespace {

// Bytes of the regular files directly in dir (a job's log directory has no subdirectories).
uint64_t FilesBytes(const std::string& dir) {
  auto names = ListDir(dir);
  if (!names.ok()) return 0;
  uint64_t total = 0;
  for (const std::string& n : *names) {
    struct stat st {};
    if (::stat(JoinPath(dir, n).c_str(), &st) == 0 && S_ISREG(st.st_mode)) total += static_cast<uint64_t>(st.st_size);
  }
  return total;
}

}  // namespace

Status PruneTaskLogs(const std::string& work_dir, int keep, uint64_t keep_bytes) {
  const std::string root = TaskLogRoot(work_dir);
  if (!IsDirectory(root)) return Status::Ok();
  MR_ASSIGN_OR_RETURN(std::vector<std::string> names, ListDir(root));
  struct Dir {
    int64_t mtime_ns;
    uint64_t job;
    std::string path;
  };
  std::vector<Dir> dirs;
  for (const std::string& n : names) {
    uint64_t job = 0;
    if (!ParseMapOutputDirName(n, &job)) continue;  // the same "jN" spelling
    struct stat st {};
    const std::string path = JoinPath(root, n);
    if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    dirs.push_back({static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec, job, path});
  }
  std::sort(dirs.begin(), dirs.end(), [](const Dir& a, const Dir& b) {
    return std::tie(a.mtime_ns, a.job) > std::tie(b.mtime_ns, b.job);  // newest first
  });
  Status first = Status::Ok();
  uint64_t bytes = 0;
  for (size_t i = 0; i < dirs.size(); ++i) {
    bytes += FilesBytes(dirs[i].path);
    const bool kept = i == 0 || (static_cast<int>(i) < keep && bytes <= keep_bytes);
    if (kept) continue;
    Status s = RemoveAll(dirs[i].path);
    if (first.ok() && !s.ok()) first = s;
  }
  return first;
}

}  // namespace mr::shuffle
