#include "worker/task/task_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "common/file_util.h"
#include "common/log.h"

namespace mr::worker {
namespace {

namespace fs = std::filesystem;

// A name no other copy on this worker uses.
std::string PrivateName(const std::string& name) {
  static std::atomic<uint64_t> next{0};
  return ".copy-" + std::to_string(::getpid()) + "-" + std::to_string(next.fetch_add(1)) + "-" + name;
}

// JOB_DIR/files/NAME: the worker's copy of a shipped file, made if it is not there yet.
Result<std::string> Localize(const std::string& files_dir, const jobs::ShippedFile& f) {
  const std::string dest = JoinPath(files_dir, f.name);
  if (PathExists(dest)) return dest;
  std::error_code ec;
  const fs::file_status st = fs::status(f.path, ec);
  if (ec || !fs::exists(st)) return Status::NotFound("shipped file " + f.path + " does not exist");
  const std::string tmp = JoinPath(files_dir, PrivateName(f.name));
  if (fs::is_directory(st)) {
    fs::copy(f.path, tmp, fs::copy_options::recursive, ec);
  } else {
    fs::copy_file(f.path, tmp, ec);
  }
  if (ec) {
    (void)RemoveAll(tmp);
    return Status::IoError("cannot copy shipped file " + f.path + ": " + ec.message());
  }
  if (::rename(tmp.c_str(), dest.c_str()) != 0) {
    const int err = errno;
    (void)RemoveAll(tmp);
    // Another attempt put its copy there first (a directory cannot be renamed over).
    if (!PathExists(dest)) {
      return Status::IoError("cannot place shipped file " + f.name + ": " + std::strerror(err));
    }
  }
  return dest;
}

}  // namespace

std::string AttemptDirName(bool is_map, uint32_t index, uint32_t attempt) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%c-%05u-%u", is_map ? 'm' : 'r', index, attempt);
  return buf;
}

Result<std::unique_ptr<TaskDir>> TaskDir::Create(const std::string& job_dir, const std::string& attempt_name,
                                                 const std::vector<jobs::ShippedFile>& files) {
  const std::string path = JoinPath(JoinPath(job_dir, "tasks"), attempt_name);
  (void)RemoveAll(path);  // a leftover of an earlier run of the same attempt id
  MR_RETURN_IF_ERROR(MakeDirs(JoinPath(path, "tmp")));
  std::unique_ptr<TaskDir> dir(new TaskDir(path));
  if (files.empty()) return dir;
  const std::string files_dir = JoinPath(job_dir, "files");
  MR_RETURN_IF_ERROR(MakeDirs(files_dir));
  for (const jobs::ShippedFile& f : files) {
    MR_ASSIGN_OR_RETURN(std::string copy, Localize(files_dir, f));
    const std::string link = JoinPath(path, f.name);
    if (::symlink(copy.c_str(), link.c_str()) != 0) {
      return Status::IoError("cannot link shipped file " + f.name + " into " + path + ": " + std::strerror(errno));
    }
  }
  return dir;
}

TaskDir::~TaskDir() {
  Status s = RemoveAll(path_);
  if (!s.ok()) MR_LOG_WARN("task directory: {}", s.ToString());
}

}  // namespace mr::worker
