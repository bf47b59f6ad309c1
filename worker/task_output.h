// Where a task attempt writes its output file (a reduce's part, or a map-only job's map's),
// and how that file reaches the job's output directory (docs/multi-host.md, "Outputs").
//
// Shared output (no JobSpec.output_server): the attempt writes its file in place,
// OUTPUT/_temporary/attempt-.../part-..., as before; only the attempt directory's last level
// is made (the master made OUTPUT/_temporary at submit and removes the whole output when the
// job ends badly: an attempt that starts after that must not bring it back).
// Output on the submitting host (output_server set): the attempt writes its file under the
// worker's own work directory, then Publish pushes it to that data server at the same
// OUTPUT/_temporary/... path (shuffle::RemoteOutputs: CRC32C-checked ranges, the file
// appearing there only whole) and removes the local copy. The attempt reports success only
// after Publish: the master commits (renames) only a file that is there whole.
#pragma once

#include <string>

#include "common/status.h"
#include "jobs/output_store.h"
#include "mr.pb.h"

namespace mr::worker {

class TaskOutput {
 public:
  // `remote` is the output server's store, or null for shared output.
  // Aborted if the job's output directory is gone (the job ended); IoError otherwise.
  static Result<TaskOutput> Prepare(const proto::Assignment& a, const std::string& work_dir,
                                    const jobs::OutputStore* remote);
  // The file the task writes.
  const std::string& path() const { return path_; }
  // Moves the written file where the master commits it from (a no-op for shared output).
  Status Publish() const;
  // Removes what the attempt wrote (a failed or cancelled attempt).
  void Discard() const;

 private:
  std::string path_;         // where the task writes
  std::string local_dir_;    // the directory to remove afterwards
  std::string destination_;  // Assignment.temp_output on the output server ("" = shared)
  const jobs::OutputStore* remote_ = nullptr;
};

}  // namespace mr::worker
