#include "jobs/output_dir.h"

#include "common/file_util.h"

namespace mr::jobs {

bool IsUnclaimedOutput(const std::string& dir) {
  auto names = ListDir(dir);
  if (!names.ok() || names->size() != 1 || (*names)[0] != "_temporary") return false;
  auto inner = ListDir(JoinPath(dir, "_temporary"));
  return inner.ok() && inner->empty();
}

bool OutputTaken(const std::string& dir) { return PathExists(dir) && !IsUnclaimedOutput(dir); }

}  // namespace mr::jobs
