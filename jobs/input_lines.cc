#include "jobs/input_lines.h"

#include <algorithm>
#include <cstring>
#include <string_view>

namespace mr::jobs {

Status InputLineReader::Fill(uint64_t pos) {
  if (window_ && pos >= window_start_ && pos - window_start_ < window_->data().size()) return Status::Ok();
  window_.reset();
  MR_ASSIGN_OR_RETURN(window_, source_.Read(file_.path, pos, std::min(kWindowBytes, file_.size - pos)));
  window_start_ = pos;
  if (window_->data().empty()) {
    window_.reset();
    return Status::IoError("input " + file_.path + " shrank while it was read (listed at " +
                           std::to_string(file_.size) + " bytes)");
  }
  return Status::Ok();
}

Result<uint64_t> InputLineReader::SkipLine(uint64_t pos, size_t keep, std::string* line) {
  while (pos < file_.size) {
    MR_RETURN_IF_ERROR(Fill(pos));
    const std::string_view rest = window_->data().substr(pos - window_start_);
    const char* nl = static_cast<const char*>(std::memchr(rest.data(), '\n', rest.size()));
    const size_t take = nl != nullptr ? static_cast<size_t>(nl - rest.data()) : rest.size();
    if (line != nullptr && line->size() < keep) line->append(rest.data(), std::min(take, keep - line->size()));
    pos += take;
    if (nl != nullptr) return pos + 1;
  }
  return file_.size;
}

}  // namespace mr::jobs
