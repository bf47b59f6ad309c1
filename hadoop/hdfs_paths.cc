#include "hadoop/hdfs_paths.h"

#include <cstdlib>

#include "common/file_util.h"

namespace mr::hadoop {

std::string HdfsRoot() {
  std::string root;
  if (const char* r = std::getenv("MR_HDFS_ROOT"); r != nullptr && *r != '\0') {
    root = AbsolutePath(r);
  } else {
    const char* home = std::getenv("HOME");
    root = JoinPath(home != nullptr && *home != '\0' ? home : "/tmp", ".mrlab/hdfs");
  }
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  return root;
}

Result<std::string> LocalPath(std::string_view name) {
  const size_t colon = name.find("://");
  if (colon == std::string_view::npos) {
    if (name.substr(0, 5) == "hdfs:" || name.substr(0, 5) == "file:") {  // hdfs:/a, file:/a
      const std::string_view scheme = name.substr(0, 4);
      return LocalPath(std::string(scheme) + "://" + std::string(name.substr(5)));
    }
    return std::string(name);
  }
  const std::string_view scheme = name.substr(0, colon);
  std::string_view rest = name.substr(colon + 3);
  const size_t slash = rest.find('/');
  std::string_view path = slash == std::string_view::npos ? std::string_view("/") : rest.substr(slash);
  if (scheme == "file") return std::string(path);
  if (scheme == "hdfs") return path == "/" ? HdfsRoot() : HdfsRoot() + std::string(path);
  return Status::InvalidArgument("'" + std::string(name) + "': the " + std::string(scheme) +
                                 ":// file system is not supported by mrlab (local paths, file:// and hdfs:// "
                                 "mapped to " + HdfsRoot() + "; docs/streaming.md)");
}

}  // namespace mr::hadoop
