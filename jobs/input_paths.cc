#include "jobs/input_paths.h"

#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/file_util.h"

namespace mr::jobs {

namespace {

std::string LastComponent(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  size_t slash = p.find_last_of('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

Result<std::vector<std::string>> Glob(const std::string& pattern) {
  glob_t g{};
  const int rc = ::glob(pattern.c_str(), GLOB_ERR, nullptr, &g);
  std::vector<std::string> out;
  if (rc == 0) {
    for (size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
  }
  globfree(&g);
  if (rc == GLOB_NOSPACE) return Status::Internal("out of memory expanding input pattern '" + pattern + "'");
  if (rc == GLOB_ABORTED) return Status::IoError("cannot read a directory while expanding input pattern '" + pattern + "'");
  std::erase_if(out, [&](const std::string& m) { return DropsHiddenMatch(pattern, m); });
  if (out.empty()) return Status::NotFound("input pattern '" + pattern + "' matches no file");
  std::sort(out.begin(), out.end());
  return out;
}

// Every regular file below `dir`, hidden names skipped at every level, in name order.
Status ListRecursively(const std::string& dir, int depth, std::vector<std::string>* out) {
  if (depth > 64) return Status::InvalidArgument("input directory " + dir + " is nested more than 64 levels deep");
  MR_ASSIGN_OR_RETURN(std::vector<std::string> names, ListDir(dir));
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    if (IsHiddenInputName(name)) continue;
    const std::string path = JoinPath(dir, name);
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) continue;  // removed meanwhile, or a dangling link
    if (S_ISDIR(st.st_mode)) {
      MR_RETURN_IF_ERROR(ListRecursively(path, depth + 1, out));
    } else if (S_ISREG(st.st_mode)) {
      out->push_back(path);
    }
  }
  return Status::Ok();
}

}  // namespace

bool IsHiddenInputName(const std::string& name) { return !name.empty() && (name[0] == '_' || name[0] == '.'); }

bool IsInputPattern(const std::string& arg) { return arg.find_first_of("*?[") != std::string::npos; }

bool DropsHiddenMatch(const std::string& pattern, const std::string& match) {
  const std::string last = LastComponent(pattern);
  const std::string name = LastComponent(match);
  return IsHiddenInputName(name) && (last.empty() || name[0] != last[0]);
}

Result<std::vector<std::string>> ResolveInputs(const std::vector<std::string>& args, bool recursive) {
  std::vector<std::string> out;
  for (const std::string& arg : args) {
    std::vector<std::string> paths;
    if (PathExists(arg)) {
      paths.push_back(arg);
    } else if (IsInputPattern(arg)) {
      MR_ASSIGN_OR_RETURN(paths, Glob(arg));
    } else {
      return Status::NotFound("input " + arg + " does not exist");
    }
    for (const std::string& p : paths) {
      if (!recursive || !IsDirectory(p)) {
        out.push_back(p);
        continue;
      }
      std::vector<std::string> files;
      MR_RETURN_IF_ERROR(ListRecursively(p, 0, &files));
      if (files.empty()) {
        out.push_back(p);
      } else {
        out.insert(out.end(), files.begin(), files.end());
      }
    }
  }
  return out;
}

Result<std::vector<std::string>> ExpandInputs(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const auto& input : inputs) {
    struct stat st{};
    if (::stat(input.c_str(), &st) != 0) {
      if (errno == ENOENT) return Status::NotFound("no such input: " + input);
      return Status::IoError("cannot stat " + input + ": " + std::strerror(errno));
    }
    if (!S_ISDIR(st.st_mode)) {
      files.push_back(input);
      continue;
    }
    MR_ASSIGN_OR_RETURN(std::vector<std::string> names, ListDir(input));
    for (const auto& name : names) {
      if (IsHiddenInputName(name)) continue;
      std::string path = JoinPath(input, name);
      struct stat est{};
      if (::stat(path.c_str(), &est) == 0 && S_ISREG(est.st_mode)) files.push_back(path);
    }
  }
  return files;
}

}  // namespace mr::jobs
