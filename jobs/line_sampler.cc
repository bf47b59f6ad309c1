#include "jobs/line_sampler.h"

#include <algorithm>

#include "jobs/input_lines.h"

namespace mr::jobs {

namespace {

// Samples lines at `count` evenly spaced offsets. Each file byte is read at most about
// once: an offset inside the line just sampled moves to the end of that line without
// reading it again, and an offset before it samples it again from memory (a file of a few
// huge lines is as cheap as one of many short ones).
Status SampleFile(const InputSource& source, const InputFile& file, size_t count,
                  std::vector<std::string>* out) {
  InputLineReader reader(source, file);
  const uint64_t size = file.size;
  uint64_t line_start = 0, line_end = 0;  // the last sampled line: [start, end) incl. '\n'
  bool have_line = false;
  for (size_t i = 0; i < count; ++i) {
    uint64_t pos = size * i / count;
    if (have_line && pos <= line_start) {
      // No line starts between this offset and the line just sampled: it counts again.
      out->push_back(out->back());
      continue;
    } else if (have_line && pos <= line_end) {
      pos = line_end;     // inside the line just sampled: the next one starts at its end
    } else if (pos > 0) {  // move to the first line starting at or after pos
      MR_ASSIGN_OR_RETURN(pos, reader.SkipLine(pos - 1));
    }
    if (pos >= size) break;
    std::string line;
    MR_ASSIGN_OR_RETURN(uint64_t next, reader.SkipLine(pos, kMaxCutPointBytes, &line));
    out->push_back(std::move(line));
    line_start = pos;
    line_end = next;
    have_line = true;
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<std::string>> SampleLines(const InputSource& source, const std::vector<InputFile>& files,
                                             size_t total_samples) {
  uint64_t total = 0;
  for (const auto& f : files) total += f.size;
  std::vector<std::string> samples;
  for (const auto& f : files) {
    if (f.size == 0) continue;
    size_t count = static_cast<size_t>(static_cast<double>(total_samples) *
                                       static_cast<double>(f.size) / static_cast<double>(total));
    MR_RETURN_IF_ERROR(SampleFile(source, f, std::max<size_t>(count, 1), &samples));
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
