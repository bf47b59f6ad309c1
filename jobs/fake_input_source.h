// FakeInputSource: an InputSource whose files live in memory, for tests (on the model of
// leveldb's helpers/memenv): a map task, a split or a plan runs with no input file on disk,
// and files can name the host that holds them. Resolve, List and Read behave as the local
// source's do (jobs/input_source.h, docs/jobs.md "Inputs"): the same directory listing,
// hidden names, glob patterns (fnmatch(3), as glob(3) matches), recursion, and the same
// errors and messages for missing, unreadable and short inputs.
// Thread-safe; bytes a Read returned stay valid after the file is replaced.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "jobs/input_source.h"

namespace mr::jobs {

class FakeInputSource final : public InputSource {
 public:
  // Adds or replaces the regular file `path` ('/'-separated, as the inputs will name it)
  // holding `contents` on `host` ("" = reachable from every process). Its parent
  // directories come into being, as `mkdir -p` would make them.
  void AddFile(const std::string& path, std::string contents, std::string host = "");
  // Adds a directory (and its parents) with nothing in it yet.
  void AddDirectory(const std::string& path);
  // Makes a file unreadable, as chmod a-r does: Resolve says PermissionDenied, Read IoError.
  void MakeUnreadable(const std::string& path);
  // Read calls so far, for tests that check who read what.
  int reads() const;

  Result<std::vector<std::string>> Resolve(const std::vector<std::string>& args, bool recursive) const override;
  Result<std::vector<InputFile>> List(const std::vector<std::string>& inputs) const override;
  Result<std::unique_ptr<InputBytes>> Read(const std::string& path, uint64_t offset,
                                           uint64_t length) const override;

 private:
  struct Node {
    bool directory = false;
    bool readable = true;
    std::shared_ptr<const std::string> contents;  // files only
    std::string host;
  };

  // The node at `path` (trailing '/' ignored), or null. REQUIRES: mu_ held.
  const Node* Find(const std::string& path) const;
  // The names directly inside directory `dir` (its map key), sorted. REQUIRES: mu_ held.
  std::vector<std::string> Children(const std::string& dir) const;
  // Every path a glob `pattern` matches, sorted, before the hidden-name rule. REQUIRES: mu_ held.
  std::vector<std::string> Glob(const std::string& pattern) const;
  // Appends the regular files below `dir` (as the argument spelled it) in name order,
  // hidden names skipped at every level. REQUIRES: mu_ held.
  Status ListRecursively(const std::string& dir, int depth, std::vector<std::string>* out) const;
  void AddParents(const std::string& path);  // REQUIRES: mu_ held.

  mutable std::mutex mu_;
  std::map<std::string, Node> nodes_;  // by normalised path; guarded by mu_
  mutable int reads_ = 0;              // guarded by mu_
};

}  // namespace mr::jobs
