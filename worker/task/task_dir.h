// TaskDir: the working directory of one task attempt whose job runs programs
// (jobs::Job::NeedsWorkingDir), Hadoop's container directory: JOB_DIR/tasks/ATTEMPT, with the
// job's shipped files (Job::ShippedFiles) in it under their names and an empty tmp/ (the
// programs' TMPDIR). A shipped file is copied once per job per worker into JOB_DIR/files/
// (as Hadoop's distributed cache localizes it; concurrent attempts race safely: each copies
// to a private name and renames) and linked from each attempt's directory, so what a task
// makes executable or writes is the worker's copy, never the user's file. JOB_DIR is the
// job's directory on this worker (shuffle::MapOutputDir), removed with everything in it when
// the job ends there. The attempt's directory is removed when the TaskDir is destroyed.
// docs/streaming.md, "Shipped files". One TaskDir per attempt; different attempts' TaskDirs
// may be made and destroyed concurrently.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "jobs/job.h"

namespace mr::worker {

class TaskDir {
 public:
  // `attempt_name` names the attempt's directory (one path component). IoError naming the
  // file if a shipped file cannot be read or copied (NotFound if it is gone).
  static Result<std::unique_ptr<TaskDir>> Create(const std::string& job_dir, const std::string& attempt_name,
                                                 const std::vector<jobs::ShippedFile>& files);
  ~TaskDir();
  TaskDir(const TaskDir&) = delete;
  TaskDir& operator=(const TaskDir&) = delete;

  const std::string& path() const { return path_; }

 private:
  explicit TaskDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

// "m-00003-1", "r-00000-2": an attempt's directory name.
std::string AttemptDirName(bool is_map, uint32_t index, uint32_t attempt);

}  // namespace mr::worker
