#include "jobs/hadoop_splits.h"

#include <algorithm>
#include <memory>

namespace mr::jobs {
namespace {

constexpr double kSplitSlop = 1.1;  // Hadoop's: a last split may be 10% larger
constexpr uint64_t kWindowBytes = 64 << 10;

// Finds line starts in one file a window at a time.
class LineStarts {
 public:
  LineStarts(const InputSource& source, const InputFile& file) : source_(source), file_(file) {}

  // The first line start after `x`: the position after the first line terminator at or
  // after x ('\n', '\r', or "\r\n" taken whole), or the file's size if none follows.
  Result<uint64_t> After(uint64_t x) {
    for (uint64_t pos = x; pos < file_.size;) {
      MR_ASSIGN_OR_RETURN(char c, At(pos));
      if (c == '\n') return pos + 1;
      if (c == '\r') {
        if (pos + 1 >= file_.size) return file_.size;
        MR_ASSIGN_OR_RETURN(char next, At(pos + 1));
        return next == '\n' ? pos + 2 : pos + 1;
      }
      // Skip to the next terminator inside the window.
      const std::string_view w = window_->data().substr(pos - start_);
      const size_t i = w.find_first_of("\r\n");
      pos += i == std::string_view::npos ? w.size() : i;
    }
    return file_.size;
  }

 private:
  Result<char> At(uint64_t pos) {
    if (!window_ || pos < start_ || pos - start_ >= window_->data().size()) {
      window_.reset();
      MR_ASSIGN_OR_RETURN(window_, source_.Read(file_.path, pos, std::min(kWindowBytes, file_.size - pos)));
      start_ = pos;
      if (window_->data().empty()) {
        window_.reset();
        return Status::IoError("input " + file_.path + " shrank while it was read (listed at " +
                               std::to_string(file_.size) + " bytes)");
      }
    }
    return window_->data()[pos - start_];
  }

  const InputSource& source_;
  const InputFile& file_;
  std::unique_ptr<InputBytes> window_;
  uint64_t start_ = 0;
};

}  // namespace

std::vector<std::pair<uint64_t, uint64_t>> HadoopCuts(uint64_t size, uint64_t split_size) {
  std::vector<std::pair<uint64_t, uint64_t>> cuts;
  split_size = std::max<uint64_t>(split_size, 1);
  uint64_t remaining = size;
  while (static_cast<double>(remaining) / static_cast<double>(split_size) > kSplitSlop) {
    cuts.emplace_back(size - remaining, split_size);
    remaining -= split_size;
  }
  if (remaining != 0) cuts.emplace_back(size - remaining, remaining);
  return cuts;
}

Result<std::vector<Split>> ComputeHadoopSplits(const InputSource& source, const std::vector<std::string>& inputs,
                                               const HadoopSplitRule& rule) {
  MR_ASSIGN_OR_RETURN(std::vector<InputFile> files, source.List(inputs));
  uint64_t total = 0;
  for (const InputFile& f : files) total += f.size;
  const uint64_t goal = total / std::max<uint32_t>(rule.maps, 1);
  const uint64_t split_size = std::max(std::max<uint64_t>(rule.min_size, 1), std::min(goal, rule.block_size));
  std::vector<Split> splits;
  for (size_t i = 0; i < files.size(); ++i) {
    const InputFile& f = files[i];
    const uint32_t index = static_cast<uint32_t>(i);
    MR_RETURN_IF_ERROR(CheckInputCodec(f.path));
    MR_RETURN_IF_ERROR(source.Read(f.path, 0, 0).status());
    if (f.size == 0 || CodecOf(f.path) == Codec::kGzip) {
      splits.push_back(Split{f.path, index, 0, f.size, f.host, 0, f.size});
      continue;
    }
    LineStarts starts(source, f);
    uint64_t begin = 0;  // the line-aligned start of the next split
    for (const auto& [offset, length] : HadoopCuts(f.size, split_size)) {
      const uint64_t end_nominal = offset + length;
      uint64_t end = f.size;
      if (end_nominal < f.size) {
        MR_ASSIGN_OR_RETURN(end, starts.After(end_nominal));
      }
      end = std::max(end, begin);
      splits.push_back(Split{f.path, index, begin, end - begin, f.host, offset, length});
      begin = end;
    }
  }
  return splits;
}

}  // namespace mr::jobs
