#include "model/slotted/slotted_workload.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/file_util.h"
#include "common/rng.h"

namespace mr::model {
namespace {

using nlohmann::json;

constexpr const char* kFormat = "mrlab-slotted-workload";

struct NamedWorkload {
  const char* name;
  UnitDist map;
  UnitDist reduce;
};

constexpr UnitDist Exp(double mean) { return {UnitDist::Kind::kExponential, mean, 1, 1}; }
constexpr UnitDist Uni(int lo, int hi) { return {UnitDist::Kind::kUniform, 0, lo, hi}; }

// The paper's simulation section, in the order its figures show them.
constexpr NamedWorkload kPaperWorkloads[] = {
    {"exp5-exp40", Exp(5), Exp(40)},
    {"exp30-exp15", Exp(30), Exp(15)},
    {"u1-9-u10-70", Uni(1, 9), Uni(10, 70)},
    {"u10-50-u10-20", Uni(10, 50), Uni(10, 20)},
};

template <typename T>
bool ParseNumber(std::string_view text, T* out) {
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, *out);
  return ec == std::errc() && p == end;
}

int Draw(const UnitDist& d, Rng& rng) {
  if (d.kind == UnitDist::Kind::kUniform) {
    const int span = d.hi - d.lo + 1;
    const int k = static_cast<int>(rng.Uniform() * span);  // Uniform() < 1, so k < span
    return d.lo + std::min(k, span - 1);
  }
  const double v = std::round(rng.Exponential(d.mean));
  return static_cast<int>(std::clamp(v, 1.0, 1e9));
}

// R units over k tasks, as evenly as possible, larger tasks first.
std::vector<int> Split(int units, int k) {
  std::vector<int> out(static_cast<size_t>(k), units / k);
  for (int i = 0; i < units % k; ++i) ++out[static_cast<size_t>(i)];
  return out;
}

Status BadJob(size_t i, const std::string& what) {
  return Status::InvalidArgument("jobs[" + std::to_string(i) + "]: " + what);
}

// A whole number in [lo, hi] from `v`, or BadJob naming `key`.
Result<int64_t> Whole(const json& v, size_t i, const std::string& key, int64_t lo, int64_t hi) {
  if (!v.is_number_integer() && !v.is_number_unsigned()) {
    return BadJob(i, "'" + key + "' must be a whole number");
  }
  const bool huge = v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(hi);
  const int64_t n = huge ? hi : v.get<int64_t>();
  if (huge || n < lo) {
    return BadJob(i, "'" + key + "' must be in " + std::to_string(lo) + ".." + std::to_string(hi));
  }
  return n;
}

Result<SlottedJob> ParseJob(const json& entry, size_t i) {
  if (!entry.is_object()) return BadJob(i, "not an object");
  for (const char* key : {"arrival", "maps", "reduces"}) {
    if (!entry.contains(key)) return BadJob(i, std::string("missing '") + key + "'");
  }
  constexpr int64_t kMaxUnits = 1'000'000'000;
  SlottedJob job;
  MR_ASSIGN_OR_RETURN(job.arrival, Whole(entry["arrival"], i, "arrival", 1, int64_t{1} << 40));
  MR_ASSIGN_OR_RETURN(int64_t maps, Whole(entry["maps"], i, "maps", 1, kMaxUnits));
  job.maps = static_cast<int>(maps);
  const json& reduces = entry["reduces"];
  if (!reduces.is_array()) return BadJob(i, "'reduces' must be an array of whole numbers >= 1");
  for (const json& r : reduces) {
    MR_ASSIGN_OR_RETURN(int64_t units, Whole(r, i, "reduces", 1, kMaxUnits));
    job.reduces.push_back(static_cast<int>(units));
  }
  return job;
}

}  // namespace

int64_t SlottedJob::reduce_units() const {
  int64_t sum = 0;
  for (int r : reduces) sum += r;
  return sum;
}

Result<UnitDist> ParseUnitDist(std::string_view text) {
  const Status bad = Status::InvalidArgument("bad distribution '" + std::string(text) +
                                             "' (want exp:MEAN or u:LO:HI)");
  if (text.starts_with("exp:")) {
    double mean = 0;
    if (!ParseNumber(text.substr(4), &mean) || !std::isfinite(mean) || mean <= 0 || mean > 1e8) {
      return bad;
    }
    return Exp(mean);
  }
  if (text.starts_with("u:")) {
    std::string_view rest = text.substr(2);
    const size_t colon = rest.find(':');
    int lo = 0, hi = 0;
    if (colon == std::string_view::npos || !ParseNumber(rest.substr(0, colon), &lo) ||
        !ParseNumber(rest.substr(colon + 1), &hi) || lo < 1 || hi < lo || hi > 100'000'000) {
      return bad;
    }
    return Uni(lo, hi);
  }
  return bad;
}

std::string FormatUnitDist(const UnitDist& d) {
  if (d.kind == UnitDist::Kind::kUniform) {
    return "u:" + std::to_string(d.lo) + ":" + std::to_string(d.hi);
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "exp:%g", d.mean);
  return buf;
}

Result<SlottedGenOptions> PaperWorkload(std::string_view name, SlottedGenOptions base) {
  for (const NamedWorkload& w : kPaperWorkloads) {
    if (name == w.name) {
      base.map = w.map;
      base.reduce = w.reduce;
      return base;
    }
  }
  std::string known;
  for (const std::string& n : PaperWorkloadNames()) known += (known.empty() ? "" : ", ") + n;
  return Status::NotFound("unknown workload '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<std::string> PaperWorkloadNames() {
  std::vector<std::string> names;
  for (const NamedWorkload& w : kPaperWorkloads) names.emplace_back(w.name);
  return names;
}

Result<std::vector<SlottedJob>> GenerateSlotted(const SlottedGenOptions& o) {
  if (!(o.rate > 0 && o.rate <= 1e4)) return Status::InvalidArgument("rate must be in (0, 10000]");
  if (o.slots < 1) return Status::InvalidArgument("slots must be >= 1");
  if (o.max_reduce_tasks < 1) return Status::InvalidArgument("max reduce tasks must be >= 1");
  Rng rng(o.seed);
  std::vector<SlottedJob> jobs;
  for (int64_t slot = 1; slot <= o.slots; ++slot) {
    const int64_t arrivals = rng.Poisson(o.rate);
    for (int64_t a = 0; a < arrivals; ++a) {
      SlottedJob job;
      job.arrival = slot;
      job.maps = Draw(o.map, rng);
      const int units = Draw(o.reduce, rng);
      const int most = std::min(o.max_reduce_tasks, units);
      const int k = 1 + std::min(static_cast<int>(rng.Uniform() * most), most - 1);
      job.reduces = Split(units, o.most_reduce_tasks ? most : k);
      jobs.push_back(std::move(job));
    }
  }
  return jobs;
}

Result<std::vector<SlottedJob>> ParseSlottedWorkload(std::string_view text) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::InvalidArgument("not valid JSON");
  if (!doc.is_object() || doc.value("format", std::string()) != kFormat) {
    return Status::InvalidArgument(std::string("not a slotted workload (want \"format\": \"") +
                                   kFormat + "\")");
  }
  if (!doc.contains("version") || doc["version"] != 1) {
    return Status::InvalidArgument("unsupported slotted workload version (want 1)");
  }
  if (!doc.contains("jobs") || !doc["jobs"].is_array()) {
    return Status::InvalidArgument("missing 'jobs' array");
  }
  std::vector<SlottedJob> jobs;
  const json& list = doc["jobs"];
  for (size_t i = 0; i < list.size(); ++i) {
    MR_ASSIGN_OR_RETURN(SlottedJob job, ParseJob(list[i], i));
    if (!jobs.empty() && job.arrival < jobs.back().arrival) {
      return BadJob(i, "arrives before the job listed before it (jobs must be in arrival order)");
    }
    jobs.push_back(std::move(job));
  }
  return jobs;
}

std::string FormatSlottedWorkload(std::span<const SlottedJob> jobs, std::string_view generator) {
  std::string out = std::string("{\"format\": \"") + kFormat + "\", \"version\": 1,\n";
  out += " \"generator\": " + json(std::string(generator)).dump() + ",\n \"jobs\": [";
  for (size_t i = 0; i < jobs.size(); ++i) {
    const SlottedJob& j = jobs[i];
    out += i == 0 ? "\n  " : ",\n  ";
    out += "{\"arrival\": " + std::to_string(j.arrival) + ", \"maps\": " + std::to_string(j.maps) +
           ", \"reduces\": [";
    for (size_t k = 0; k < j.reduces.size(); ++k) {
      out += (k == 0 ? "" : ", ") + std::to_string(j.reduces[k]);
    }
    out += "]}";
  }
  out += "\n ]}\n";
  return out;
}

Result<std::vector<SlottedJob>> LoadSlottedWorkload(const std::string& path) {
  if (!PathExists(path)) return Status::NotFound("workload file not found: " + path);
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  Result<std::vector<SlottedJob>> jobs = ParseSlottedWorkload(text);
  if (!jobs.ok()) return jobs.status().WithContext(path);
  return jobs;
}

Status SaveSlottedWorkload(const std::string& path, std::span<const SlottedJob> jobs,
                           std::string_view generator) {
  return WriteFileAtomically(path, FormatSlottedWorkload(jobs, generator));
}

std::string DescribeGenerator(std::string_view name, const SlottedGenOptions& o) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%.*s map=%s reduce=%s rate=%g slots=%lld seed=%llu max-reduce-tasks=%d%s",
                static_cast<int>(name.size()), name.data(), FormatUnitDist(o.map).c_str(),
                FormatUnitDist(o.reduce).c_str(), o.rate, static_cast<long long>(o.slots),
                static_cast<unsigned long long>(o.seed), o.max_reduce_tasks,
                o.most_reduce_tasks ? " reduce-tasks=most" : "");
  return buf;
}

}  // namespace mr::model
