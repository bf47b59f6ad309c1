#include "jobs/params.h"

#include <charconv>
#include <cmath>

#include "common/units.h"

namespace mr::jobs {

bool IsGenericParam(std::string_view name) {
  static constexpr std::string_view kGeneric[] = {
      "num_maps", "reducers", "split_bytes", "sort_buffer_bytes", "slow_start", "name",
      "pool",     "weight",   "policy"};
  if (!name.empty() && name[0] == '_') return true;
  for (auto g : kGeneric) {
    if (g == name) return true;
  }
  return false;
}

Status CheckKnownParams(std::string_view job, const Params& params, std::span<const std::string_view> known) {
  for (const auto& [name, value] : params) {
    if (IsGenericParam(name)) continue;
    bool found = false;
    for (auto k : known) found = found || k == name;
    if (found) continue;
    std::string list;
    for (auto k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    return Status::InvalidArgument("unknown parameter '" + name + "' for job " + std::string(job) +
                                   " (known: " + (list.empty() ? "none" : list) + ")");
  }
  return Status::Ok();
}

Result<std::string> GetRequiredParam(std::string_view job, const Params& params,
                                     const std::string& name) {
  auto it = params.find(name);
  if (it == params.end() || it->second.empty()) {
    return Status::InvalidArgument(std::string(job) + " needs --" + name);
  }
  return it->second;
}

Result<double> GetSecondsParam(const Params& params, const std::string& name, double def) {
  auto it = params.find(name);
  if (it == params.end()) return def;
  const std::string& s = it->second;
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v) || v < 0) {
    return Status::InvalidArgument("parameter " + name + ": not a non-negative number: '" + s + "'");
  }
  return v;
}

Result<uint64_t> GetBytesParam(const Params& params, const std::string& name, uint64_t def) {
  auto it = params.find(name);
  if (it == params.end()) return def;
  auto r = ParseBytes(it->second);
  if (!r.ok()) return r.status().WithContext("parameter " + name);
  return r;
}

Result<uint64_t> GetUintParam(const Params& params, const std::string& name, uint64_t def) {
  auto it = params.find(name);
  if (it == params.end()) return def;
  const std::string& s = it->second;
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) {
    return Status::InvalidArgument("parameter " + name + ": not an unsigned integer: '" + s + "'");
  }
  return v;
}

}  // namespace mr::jobs
