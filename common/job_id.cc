#include "common/job_id.h"

#include <charconv>
#include <cstdio>

namespace mr {

std::string JobIdString(uint64_t id) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "job-%06llu", static_cast<unsigned long long>(id));
  return buf;
}

std::optional<uint64_t> ParseJobId(std::string_view text) {
  if (text.rfind("job-", 0) == 0) text.remove_prefix(4);
  if (text.empty() || text.size() > 18) return std::nullopt;
  uint64_t id = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
  return id;
}

}  // namespace mr
