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

// From `pos`, consumes up to and including the next '\n' (or EOF), appending at most
// `keep` bytes of the line (without '\n') to *line. Returns the next line start.
Result<uint64_t> ReadLineFrom(int fd, const std::string& path, uint64_t pos, uint64_t size,
                              size_t keep, std::string* line) {
  char buf[16 * 1024];
  while (pos < size) {
    ssize_t n = ::pread(fd, buf, sizeof buf, static_cast<off_t>(pos));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return OpenError(path);
    size_t got = static_cast<size_t>(n);
    const char* nl = static_cast<const char*>(std::memchr(buf, '\n', got));
    size_t take = nl != nullptr ? static_cast<size_t>(nl - buf) : got;
    if (line != nullptr && line->size() < keep) line->append(buf, std::min(take, keep - line->size()));
    pos += take;
    if (nl != nullptr) return pos + 1;
  }
  return size;
}

// Samples lines at `count` evenly spaced offsets. Each file byte is read at most about
// once: an offset inside the line just sampled moves to the end of that line without
// reading it again (a file of a few huge lines is as cheap as one of many short ones).
Status SampleFile(const std::string& path, size_t count, std::vector<std::string>* out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return OpenError(path);
  struct stat st{};
  Status s;
  if (::fstat(fd, &st) != 0) s = OpenError(path);
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  uint64_t line_start = 0, line_end = 0;  // the last sampled line: [start, end) incl. '\n'
  bool have_line = false;
  for (size_t i = 0; s.ok() && i < count; ++i) {
    uint64_t pos = size * i / count;
    if (have_line && pos <= line_start) {
      pos = line_start;   // no line starts between the previous offset and that line
    } else if (have_line && pos <= line_end) {
      pos = line_end;     // inside the line just sampled: the next one starts at its end
    } else if (pos > 0) {  // move to the first line starting at or after pos
      auto next = ReadLineFrom(fd, path, pos - 1, size, 0, nullptr);
      if (!next.ok()) {
        s = next.status();
        break;
      }
      pos = *next;
    }
    if (pos >= size) break;
    std::string line;
    auto r = ReadLineFrom(fd, path, pos, size, kMaxCutPointBytes, &line);
    if (!r.ok()) {
      s = r.status();
      break;
    }
    out->push_back(std::move(line));
    line_start = pos;
    line_end = *r;
    have_line = true;
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
  const size_t prefix = std::clamp<size_t>(kCutPointsBudgetBytes / (reducers - 1), 1, kMaxCutPointBytes);
  for (uint32_t i = 1; i < reducers; ++i) {
    const std::string& s = samples[samples.size() * i / reducers];
    cuts.push_back(s.substr(0, prefix));
  }
  return cuts;
}

}  // namespace mr::jobs
