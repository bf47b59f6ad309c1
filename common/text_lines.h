// Walking text line by line, and splitting a line into fields: the loops every small
// text format of the project (job CSV, SWIM trace, results CSVs) would otherwise write
// again. Views into the caller's text; nothing is copied or trimmed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mr {

// Yields each '\n'-separated line of `text` (without the '\n'; the last line need not end
// in one, and there is no empty line after a final '\n') with its 1-based number.
//   LineCursor lines(text);
//   std::string_view line;
//   while (lines.Next(&line)) { ... lines.number() ... }
class LineCursor {
 public:
  explicit LineCursor(std::string_view text) : text_(text) {}
  bool Next(std::string_view* line) {
    if (pos_ >= text_.size()) return false;
    size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    *line = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    ++number_;
    return true;
  }
  int number() const { return number_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int number_ = 0;
};

// The fields of `line` between `sep`s, untrimmed: "a,,b" -> {"a", "", "b"}; "" -> {""}.
inline std::vector<std::string> SplitFields(std::string_view line, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t at = line.find(sep, start);
    out.emplace_back(line.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

}  // namespace mr
