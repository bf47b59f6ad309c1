#include "jobs/line_sampler.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace mr::jobs {

namespace {

Status OpenError(const std::string& path) {
  if (errno == ENOENT) return Status::NotFound("no such input: " + path);
  return Status::IoError("cannot read " + path + ": " + std::strerror(errno));
}

// From `pos`, consumes up to and including the next '\n' (or EOF); with `keep`,
// appends the line (without '\n') to *line. Returns the next line start.
Result<uint64_t> ReadLineFrom(int fd, const std::string& path, uint64_t pos, uint64_t size,
                              bool keep, std::string* line) {
  char buf[16 * 1024];
  while (pos < size) {
    ssize_t n = ::pread(fd, buf, sizeof buf, static_cast<off_t>(pos));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return OpenError(path);
    size_t got = static_cast<size_t>(n);
    const char* nl = static_cast<const char*>(std::memchr(buf, '\n', got));
    size_t take = nl != nullptr ? static_cast<size_t>(nl - buf) : got;
    if (keep && line != nullptr) line->append(buf, take);
    pos += take;
    if (nl != nullptr) return pos + 1;
  }
  return size;
}

Status SampleFile(const std::string& path, size_t count, std::vector<std::string>* out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return OpenError(path);
  struct stat st{};
  Status s;
  if (::fstat(fd, &st) != 0) s = OpenError(path);
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  for (size_t i = 0; s.ok() && i < count; ++i) {
    uint64_t pos = size * i / count;
    if (pos > 0) {  // move to the first line starting at or after pos
      auto next = ReadLineFrom(fd, path, pos - 1, size, false, nullptr);
      if (!next.ok()) {
        s = next.status();
        break;
      }
      pos = *next;
    }
    if (pos >= size) break;
    std::string line;
    auto r = ReadLineFrom(fd, path, pos, size, true, &line);
    if (!r.ok()) s = r.status();
    else out->push_back(std::move(line));
  }
  ::close(fd);
  return s;
}

}  // namespace

Result<std::vector<std::string>> SampleLines(const std::vector<std::string>& files,
                                             size_t total_samples) {
  std::vector<uint64_t> sizes;
  uint64_t total = 0;
  for (const auto& f : files) {
    struct stat st{};
    if (::stat(f.c_str(), &st) != 0) return OpenError(f);
    sizes.push_back(static_cast<uint64_t>(st.st_size));
    total += sizes.back();
  }
  std::vector<std::string> samples;
  for (size_t i = 0; i < files.size(); ++i) {
    if (sizes[i] == 0) continue;
    size_t count = static_cast<size_t>(static_cast<double>(total_samples) *
                                       static_cast<double>(sizes[i]) / static_cast<double>(total));
    MR_RETURN_IF_ERROR(SampleFile(files[i], std::max<size_t>(count, 1), &samples));
  }
  return samples;
}

std::vector<std::string> PickCutPoints(std::vector<std::string> samples, uint32_t reducers) {
  std::vector<std::string> cuts;
  if (samples.empty() || reducers < 2) return cuts;
  std::sort(samples.begin(), samples.end());
  for (uint32_t i = 1; i < reducers; ++i) {
    cuts.push_back(samples[samples.size() * i / reducers]);
  }
  return cuts;
}

}  // namespace mr::jobs
