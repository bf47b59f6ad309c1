#include "worker/task_output.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "common/file_util.h"
#include "common/job_id.h"

namespace mr::worker {

namespace {

std::string Dirname(const std::string& path) { return path.substr(0, path.rfind('/')); }
std::string Basename(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// Only the last level is created (see the header).
Status MakeAttemptDir(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0755) == 0 || errno == EEXIST) return Status::Ok();
  if (errno == ENOENT) return Status::Aborted("the job's output directory is gone (job ended)");
  return Status::IoError("cannot create " + dir + ": " + std::strerror(errno));
}

}  // namespace

Result<TaskOutput> TaskOutput::Prepare(const proto::Assignment& a, const std::string& work_dir,
                                       const jobs::OutputStore* remote) {
  TaskOutput o;
  if (remote == nullptr) {
    o.path_ = a.temp_output();
    o.local_dir_ = Dirname(o.path_);
    MR_RETURN_IF_ERROR(MakeAttemptDir(o.local_dir_));
    return o;
  }
  // WORK/outputs/job-000007/attempt-r-00003-1/part-r-00003: the attempt's own directory.
  o.local_dir_ = JoinPath(JoinPath(JoinPath(work_dir, "outputs"), JobIdString(a.job_id())),
                          Basename(Dirname(a.temp_output())));
  MR_RETURN_IF_ERROR(MakeDirs(o.local_dir_));
  o.path_ = JoinPath(o.local_dir_, Basename(a.temp_output()));
  o.destination_ = a.temp_output();
  o.remote_ = remote;
  return o;
}

Status TaskOutput::Publish() const {
  if (remote_ == nullptr) return Status::Ok();
  Status s = remote_->PutFile(path_, destination_);
  Discard();
  // The data server makes only the attempt directory's last level: NotFound means the job's
  // output directory is gone, i.e. the job ended.
  if (s.code() == StatusCode::kNotFound) return Status::Aborted("the job's output directory is gone (job ended)");
  return s.WithContext("pushing " + Basename(path_) + " to the output server");
}

void TaskOutput::Discard() const { (void)RemoveAll(local_dir_); }

}  // namespace mr::worker
