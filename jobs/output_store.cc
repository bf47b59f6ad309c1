#include "jobs/output_store.h"

#include "common/file_util.h"
#include "jobs/output_dir.h"

namespace mr::jobs {

namespace {

class LocalOutputStore final : public OutputStore {
 public:
  Result<OutputState> State(const std::string& dir) const override {
    if (!PathExists(dir)) return OutputState::kAbsent;
    return IsUnclaimedOutput(dir) ? OutputState::kUnclaimed : OutputState::kTaken;
  }
  Status MakeDirs(const std::string& dir) const override { return mr::MakeDirs(dir); }
  Status Claim(const std::string& dir) const override { return ClaimOutput(dir); }
  Status Rename(const std::string& from, const std::string& to) const override {
    if (!PathExists(from)) return Status::NotFound("no such file: " + from);
    return RenameFile(from, to);
  }
  Status Put(const std::string& path, std::string_view contents) const override {
    return WriteFileAtomically(path, contents);
  }
  // In the kernel where the file system allows it (common/file_util.h), synced as Put.
  Status PutFile(const std::string& local, const std::string& path) const override {
    if (local == path) return Status::Ok();
    return CopyFileAtomically(local, path);
  }
  Status RemoveAll(const std::string& path) const override { return mr::RemoveAll(path); }
};

}  // namespace

const OutputStore& LocalOutputs() {
  static const LocalOutputStore store;
  return store;
}

}  // namespace mr::jobs
