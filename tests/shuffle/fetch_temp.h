// Whether a fetch into `dest` left a temporary file beside it: a fetch receives under
// dest + ".a<attempt>.<n>.tmp" (shuffle/net/run_commit.h), so any name that starts with
// dest's name + ".a" and ends in ".tmp" in its directory counts.
#pragma once

#include <filesystem>
#include <string>

namespace mr::shuffle::testing {

inline bool FetchTempLeft(const std::string& dest) {
  const std::filesystem::path path(dest);
  const std::string prefix = path.filename().string() + ".a";
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(path.parent_path(), ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0) return true;
  }
  return false;
}

}  // namespace mr::shuffle::testing
