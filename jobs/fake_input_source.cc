#include "jobs/fake_input_source.h"

#include <fnmatch.h>

#include <algorithm>
#include <string_view>

#include "common/file_util.h"
#include "jobs/input_paths.h"

namespace mr::jobs {

namespace {

std::string Normalise(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

// A view into shared contents: the file may be replaced while the bytes are in use.
class SharedBytes final : public InputBytes {
 public:
  SharedBytes(std::shared_ptr<const std::string> contents, std::string_view view)
      : contents_(std::move(contents)), view_(view) {}
  std::string_view data() const override { return view_; }

 private:
  std::shared_ptr<const std::string> contents_;
  std::string_view view_;
};

}  // namespace

void FakeInputSource::AddParents(const std::string& path) {
  for (size_t slash = path.rfind('/'); slash != std::string::npos && slash > 0; slash = path.rfind('/', slash - 1)) {
    nodes_[path.substr(0, slash)].directory = true;
  }
  if (!path.empty() && path[0] == '/') nodes_["/"].directory = true;
}

void FakeInputSource::AddFile(const std::string& path, std::string contents, std::string host) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string key = Normalise(path);
  AddParents(key);
  Node& n = nodes_[key];
  n = Node{};
  n.contents = std::make_shared<const std::string>(std::move(contents));
  n.host = std::move(host);
}

void FakeInputSource::AddDirectory(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string key = Normalise(path);
  AddParents(key);
  nodes_[key].directory = true;
}

void FakeInputSource::MakeUnreadable(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = nodes_.find(Normalise(path));
  if (it != nodes_.end()) it->second.readable = false;
}

int FakeInputSource::reads() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reads_;
}

const FakeInputSource::Node* FakeInputSource::Find(const std::string& path) const {
  auto it = nodes_.find(Normalise(path));
  return it == nodes_.end() ? nullptr : &it->second;
}

std::vector<std::string> FakeInputSource::Children(const std::string& dir) const {
  const std::string key = Normalise(dir);
  const std::string prefix = key == "/" ? key : key + "/";
  std::vector<std::string> names;
  for (auto it = nodes_.lower_bound(prefix); it != nodes_.end() && it->first.starts_with(prefix); ++it) {
    std::string_view rest = std::string_view(it->first).substr(prefix.size());
    if (!rest.empty() && rest.find('/') == std::string_view::npos) names.emplace_back(rest);
  }
  return names;  // map order: sorted
}

std::vector<std::string> FakeInputSource::Glob(const std::string& pattern) const {
  std::vector<std::string> out;
  for (const auto& [path, node] : nodes_) {
    if (::fnmatch(pattern.c_str(), path.c_str(), FNM_PATHNAME | FNM_PERIOD) == 0) out.push_back(path);
  }
  return out;
}

Status FakeInputSource::ListRecursively(const std::string& dir, int depth, std::vector<std::string>* out) const {
  if (depth > 64) return Status::InvalidArgument("input directory " + dir + " is nested more than 64 levels deep");
  for (const std::string& name : Children(dir)) {
    if (IsHiddenInputName(name)) continue;
    const std::string path = JoinPath(dir, name);
    const Node* n = Find(path);
    if (n->directory) {
      MR_RETURN_IF_ERROR(ListRecursively(path, depth + 1, out));
    } else {
      out->push_back(path);
    }
  }
  return Status::Ok();
}

Result<std::vector<std::string>> FakeInputSource::Resolve(const std::vector<std::string>& args,
                                                          bool recursive) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const std::string& arg : args) {
    std::vector<std::string> paths;
    if (Find(arg) != nullptr) {
      paths.push_back(arg);
    } else if (IsInputPattern(arg)) {
      paths = Glob(arg);
      std::erase_if(paths, [&](const std::string& m) { return DropsHiddenMatch(arg, m); });
      if (paths.empty()) return Status::NotFound("input pattern '" + arg + "' matches no file");
    } else {
      return Status::NotFound("input " + arg + " does not exist");
    }
    for (const std::string& p : paths) {
      std::vector<std::string> files;
      if (recursive && Find(p)->directory) MR_RETURN_IF_ERROR(ListRecursively(p, 0, &files));
      if (files.empty()) {
        out.push_back(p);
      } else {
        out.insert(out.end(), files.begin(), files.end());
      }
    }
  }
  for (const std::string& in : out) {
    const Node* n = Find(in);
    if (!n->directory && !n->readable) return Status::PermissionDenied("input " + in + " is not readable");
  }
  return out;
}

Result<std::vector<InputFile>> FakeInputSource::List(const std::vector<std::string>& inputs) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<InputFile> files;
  for (const std::string& input : inputs) {
    const Node* n = Find(input);
    if (n == nullptr) return Status::NotFound("no such input: " + input);
    if (!n->directory) {
      files.push_back(InputFile{input, n->contents->size(), n->host});
      continue;
    }
    for (const std::string& name : Children(input)) {
      if (IsHiddenInputName(name)) continue;
      const std::string path = JoinPath(input, name);
      const Node* f = Find(path);
      if (!f->directory) files.push_back(InputFile{path, f->contents->size(), f->host});
    }
  }
  return files;
}

Result<std::unique_ptr<InputBytes>> FakeInputSource::Read(const std::string& path, uint64_t offset,
                                                          uint64_t length) const {
  std::lock_guard<std::mutex> lock(mu_);
  ++reads_;
  const Node* n = Find(path);
  if (n == nullptr) return Status::NotFound("no such input: " + path);
  if (n->directory) return Status::IoError("input " + path + " is a directory");
  if (!n->readable) return Status::IoError("cannot open " + path + ": Permission denied");
  const std::string& c = *n->contents;
  if (offset > c.size()) return Status::IoError("input " + path + " is shorter than offset " + std::to_string(offset));
  std::string_view view = std::string_view(c).substr(offset, std::min<uint64_t>(length, c.size() - offset));
  return std::unique_ptr<InputBytes>(std::make_unique<SharedBytes>(n->contents, view));
}

}  // namespace mr::jobs
