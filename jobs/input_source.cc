#include "jobs/input_source.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "common/file_util.h"
#include "common/mapped_file.h"
#include "jobs/input_paths.h"

namespace mr::jobs {
namespace {

class MappedBytes final : public InputBytes {
 public:
  explicit MappedBytes(MappedFile file) : file_(std::move(file)) {}
  std::string_view data() const override { return file_.data(); }

 private:
  MappedFile file_;
};

class LocalInputSource final : public InputSource {
 public:
  Result<std::vector<std::string>> Resolve(const std::vector<std::string>& args, bool recursive) const override {
    MR_ASSIGN_OR_RETURN(std::vector<std::string> inputs, ResolveInputs(args, recursive));
    for (const std::string& in : inputs) {
      if (!IsDirectory(in) && ::access(in.c_str(), R_OK) != 0) {
        return Status::PermissionDenied("input " + in + " is not readable");
      }
    }
    return inputs;
  }

  Result<std::vector<InputFile>> List(const std::vector<std::string>& inputs) const override {
    MR_ASSIGN_OR_RETURN(std::vector<std::string> paths, ExpandInputs(inputs));
    std::vector<InputFile> files;
    files.reserve(paths.size());
    for (std::string& p : paths) {
      struct stat st{};
      if (::stat(p.c_str(), &st) != 0) return Status::NotFound("no such input: " + p);
      files.push_back(InputFile{std::move(p), static_cast<uint64_t>(st.st_size), ""});
    }
    return files;
  }

  Result<std::unique_ptr<InputBytes>> Read(const std::string& path, uint64_t offset,
                                           uint64_t length) const override {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) return Status::NotFound("no such input: " + path);
    const uint64_t size = static_cast<uint64_t>(st.st_size);
    if (offset > size) return Status::IoError("input " + path + " is shorter than offset " + std::to_string(offset));
    MR_ASSIGN_OR_RETURN(MappedFile file, MappedFile::Open(path, offset, std::min(length, size - offset)));
    return std::unique_ptr<InputBytes>(std::make_unique<MappedBytes>(std::move(file)));
  }
};

}  // namespace

Codec CodecOf(std::string_view path) {
  return path.size() >= 3 && path.substr(path.size() - 3) == ".gz" ? Codec::kGzip : Codec::kNone;
}

Status CheckInputCodec(std::string_view path) {
  static constexpr std::string_view kUnsupported[][2] = {
      {".bz2", "bzip2"}, {".deflate", "deflate"}, {".lz4", "lz4"}, {".snappy", "snappy"}, {".zst", "zstandard"}};
  for (const auto& [suffix, name] : kUnsupported) {
    if (path.size() >= suffix.size() && path.substr(path.size() - suffix.size()) == suffix) {
      return Status::InvalidArgument("input " + std::string(path) + " is " + std::string(name) +
                                     "-compressed (by its name): mrlab reads plain text and gzip (.gz) only");
    }
  }
  return Status::Ok();
}

const InputSource& LocalInputs() {
  static const LocalInputSource* const source = new LocalInputSource();
  return *source;
}

}  // namespace mr::jobs
