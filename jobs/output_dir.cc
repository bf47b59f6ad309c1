#include "jobs/output_dir.h"

#include <stdio.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <random>

#include "common/file_util.h"

namespace mr::jobs {

bool IsUnclaimedOutput(const std::string& dir) {
  auto names = ListDir(dir);
  if (!names.ok() || names->size() != 1 || (*names)[0] != "_temporary") return false;
  auto inner = ListDir(JoinPath(dir, "_temporary"));
  return inner.ok() && inner->empty();
}

bool OutputTaken(const std::string& dir) { return PathExists(dir) && !IsUnclaimedOutput(dir); }

Status ClaimOutput(const std::string& dir_in) {
  std::string dir = dir_in;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  if (IsUnclaimedOutput(dir)) return Status::Ok();
  if (PathExists(dir)) return Status::AlreadyExists("output directory " + dir_in + " already exists");
  const size_t slash = dir.rfind('/');
  const std::string parent = slash == std::string::npos ? "." : (slash == 0 ? "/" : dir.substr(0, slash));
  const std::string name = slash == std::string::npos ? dir : dir.substr(slash + 1);
  MR_RETURN_IF_ERROR(MakeDirs(parent));
  std::random_device rd;
  const std::string claim = JoinPath(parent, "." + name + ".claim-" + std::to_string(rd()));
  MR_RETURN_IF_ERROR(MakeDirs(JoinPath(claim, "_temporary")));
  // rename() replaces only an empty directory: one made since the check above is taken
  // over (it held nothing), anything with entries makes it fail.
  if (::rename(claim.c_str(), dir.c_str()) != 0) {
    const int err = errno;
    (void)RemoveAll(claim);
    if (err == ENOTEMPTY || err == EEXIST || err == ENOTDIR) {
      return Status::AlreadyExists("output directory " + dir_in + " already exists");
    }
    return Status::IoError("cannot create output directory " + dir_in + ": " + std::strerror(err));
  }
  return Status::Ok();
}

}  // namespace mr::jobs
