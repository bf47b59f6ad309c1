#include "jobs/range_partitioner.h"

#include <algorithm>

namespace mr::jobs {

namespace {
int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

std::string EncodeCutPoints(const std::vector<std::string>& cuts) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < cuts.size(); ++i) {
    if (i > 0) out.push_back(',');
    for (unsigned char c : cuts[i]) {
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

Result<std::vector<std::string>> DecodeCutPoints(std::string_view encoded) {
  std::vector<std::string> cuts;
  if (encoded.empty()) return cuts;
  size_t start = 0;
  while (start <= encoded.size()) {
    size_t end = encoded.find(',', start);
    if (end == std::string_view::npos) end = encoded.size();
    std::string_view hex = encoded.substr(start, end - start);
    if (hex.size() % 2 != 0) return Status::InvalidArgument("cut points: odd hex length");
    std::string cut;
    for (size_t i = 0; i < hex.size(); i += 2) {
      int hi = HexDigit(hex[i]), lo = HexDigit(hex[i + 1]);
      if (hi < 0 || lo < 0) return Status::InvalidArgument("cut points: bad hex digit");
      cut.push_back(static_cast<char>(hi * 16 + lo));
    }
    if (!cuts.empty() && cut < cuts.back()) {
      return Status::InvalidArgument("cut points: not sorted");
    }
    cuts.push_back(std::move(cut));
    start = end + 1;
  }
  return cuts;
}

uint32_t RangePartitioner::Partition(std::string_view key, uint32_t num_partitions) const {
  size_t usable = std::min<size_t>(cuts_.size(), num_partitions - 1);
  auto end = cuts_.begin() + static_cast<std::ptrdiff_t>(usable);
  auto it = std::upper_bound(cuts_.begin(), end, key,
                             [](std::string_view k, const std::string& c) { return k < c; });
  return static_cast<uint32_t>(it - cuts_.begin());
}

}  // namespace mr::jobs
