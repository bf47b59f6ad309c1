// Where a job's output directory lives, as jobs::InputSource says where its inputs do: the
// master's existence check at submit, its claim of the directory (OUTPUT/_temporary), the
// commit of an accepted attempt (a rename within the directory), `_SUCCESS` and the job's
// trace copy, and the removal of a failed or killed job's output all go through one
// OutputStore. LocalOutputs() is the shared-file-system behaviour (the output directory at
// the same path on every host: one machine, or NFS; docs/multi-host.md, "Outputs");
// shuffle::RemoteOutputs is the submitting host's data server (`mr data-server
// --export-output DIR`), to which a task also pushes its attempt's file (PutFile). Paths are
// absolute paths on the store's host. Implementations are thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace mr::jobs {

// What is at an output path (jobs/output_dir.h's rule): nothing, a directory that holds only
// an empty `_temporary` (what a submit leaves when its master dies before storing the job),
// or anything else (taken: the job must not write there).
enum class OutputState { kAbsent, kUnclaimed, kTaken };

class OutputStore {
 public:
  virtual ~OutputStore() = default;

  virtual Result<OutputState> State(const std::string& dir) const = 0;
  // Creates `dir` and its parents (as mkdir -p).
  virtual Status MakeDirs(const std::string& dir) const = 0;
  // Claims the output directory `dir` for a job: makes dir/_temporary. The local store makes
  // it appear whole (jobs::ClaimOutput: dir with its _temporary, or nothing); by default,
  // MakeDirs(dir/_temporary).
  virtual Status Claim(const std::string& dir) const { return MakeDirs(dir + "/_temporary"); }
  // Renames `from` to `to` (a file; `to` replaced if present); NotFound if `from` is missing.
  virtual Status Rename(const std::string& from, const std::string& to) const = 0;
  // Writes `contents` as the file `path` (its directory must exist), whole or not at all: it
  // appears under its name only once every byte is written and synced.
  virtual Status Put(const std::string& path, std::string_view contents) const = 0;
  // Copies the local file `local` to `path` on the store's host, whole or not at all (as Put).
  virtual Status PutFile(const std::string& local, const std::string& path) const = 0;
  // Removes `path` and everything under it; OK if it does not exist.
  virtual Status RemoveAll(const std::string& path) const = 0;
};

// The process's local file system.
const OutputStore& LocalOutputs();

}  // namespace mr::jobs
