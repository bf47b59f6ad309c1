#include "model/makespan/profile_json.h"

#include <cmath>

namespace mr::model {

using nlohmann::json;

Result<double> JsonNumber(const json& object, const char* key, const std::string& where, const double* fallback) {
  auto it = object.find(key);
  if (it == object.end() && fallback != nullptr) return *fallback;
  if (it == object.end() || !it->is_number() || !std::isfinite(it->get<double>())) {
    return Status::InvalidArgument(where + ": '" + key + "' must be a number");
  }
  return it->get<double>();
}

Result<int64_t> JsonInteger(const json& object, const char* key, int64_t lo, int64_t hi, const std::string& where,
                            const int64_t* fallback) {
  auto it = object.find(key);
  if (it == object.end() && fallback != nullptr) return *fallback;
  const bool ok = it != object.end() && it->is_number_integer() && it->get<int64_t>() >= lo && it->get<int64_t>() <= hi;
  if (!ok) {
    return Status::InvalidArgument(where + ": '" + key + "' must be an integer in " + std::to_string(lo) + ".." +
                                   std::to_string(hi));
  }
  return it->get<int64_t>();
}

namespace {

json Phase(const PhaseStats& p) { return json{{"avg", p.avg}, {"max", p.max}}; }

Result<PhaseStats> ReadPhase(const json& object, const char* key, bool required, const std::string& where) {
  auto it = object.find(key);
  if (it == object.end() && !required) return PhaseStats{};
  if (it == object.end() || !it->is_object()) {
    return Status::InvalidArgument(where + ": '" + key + "' must be an object {\"avg\": S, \"max\": S}");
  }
  const std::string inner = where + ": " + key;
  PhaseStats p;
  MR_ASSIGN_OR_RETURN(p.avg, JsonNumber(*it, "avg", inner));
  MR_ASSIGN_OR_RETURN(p.max, JsonNumber(*it, "max", inner));
  return p;
}

Result<uint64_t> ReadBytes(const json& object, const char* key, const std::string& where) {
  const int64_t zero = 0;
  MR_ASSIGN_OR_RETURN(int64_t v, JsonInteger(object, key, 0, INT64_MAX, where, &zero));
  return static_cast<uint64_t>(v);
}

}  // namespace

json ProfileJsonObject(const JobProfile& p) {
  return json{{"name", p.name},
              {"maps", p.maps},
              {"reduces", p.reduces},
              {"map", Phase(p.map)},
              {"first_shuffle", Phase(p.first_shuffle)},
              {"typical_shuffle", Phase(p.typical_shuffle)},
              {"reduce", Phase(p.reduce)},
              {"bytes", {{"input", p.input_bytes}, {"shuffle", p.shuffle_bytes}, {"output", p.output_bytes}}},
              {"measured", {{"map_stage", p.measured_map_stage}, {"reduce_stage", p.measured_reduce_stage}}}};
}

Result<JobProfile> ProfileFromJsonObject(const json& o, const std::string& where_outer) {
  const std::string where = where_outer.empty() ? "profile" : where_outer + ": profile";
  if (!o.is_object()) return Status::InvalidArgument(where + ": must be a JSON object");
  JobProfile p;
  if (auto it = o.find("name"); it != o.end()) {
    if (!it->is_string()) return Status::InvalidArgument(where + ": 'name' must be a string");
    p.name = it->get<std::string>();
  }
  MR_ASSIGN_OR_RETURN(int64_t maps, JsonInteger(o, "maps", 1, 10000000, where));
  MR_ASSIGN_OR_RETURN(int64_t reduces, JsonInteger(o, "reduces", 0, 10000000, where));
  p.maps = static_cast<int>(maps);
  p.reduces = static_cast<int>(reduces);
  MR_ASSIGN_OR_RETURN(p.map, ReadPhase(o, "map", true, where));
  MR_ASSIGN_OR_RETURN(p.first_shuffle, ReadPhase(o, "first_shuffle", false, where));
  MR_ASSIGN_OR_RETURN(p.typical_shuffle, ReadPhase(o, "typical_shuffle", false, where));
  MR_ASSIGN_OR_RETURN(p.reduce, ReadPhase(o, "reduce", true, where));
  if (auto it = o.find("bytes"); it != o.end()) {
    if (!it->is_object()) return Status::InvalidArgument(where + ": 'bytes' must be an object");
    MR_ASSIGN_OR_RETURN(p.input_bytes, ReadBytes(*it, "input", where + ": bytes"));
    MR_ASSIGN_OR_RETURN(p.shuffle_bytes, ReadBytes(*it, "shuffle", where + ": bytes"));
    MR_ASSIGN_OR_RETURN(p.output_bytes, ReadBytes(*it, "output", where + ": bytes"));
  }
  if (auto it = o.find("measured"); it != o.end()) {
    if (!it->is_object()) return Status::InvalidArgument(where + ": 'measured' must be an object");
    const double zero = 0;
    MR_ASSIGN_OR_RETURN(p.measured_map_stage, JsonNumber(*it, "map_stage", where + ": measured", &zero));
    MR_ASSIGN_OR_RETURN(p.measured_reduce_stage, JsonNumber(*it, "reduce_stage", where + ": measured", &zero));
  }
  Status valid = ValidateProfile(p);
  if (!valid.ok()) return Status::InvalidArgument(where_outer.empty() ? valid.message() : where_outer + ": " + valid.message());
  return p;
}

std::string ProfileToJson(const JobProfile& profile) { return ProfileJsonObject(profile).dump(); }

Result<JobProfile> ProfileFromJson(std::string_view text) {
  json o = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (o.is_discarded()) return Status::InvalidArgument("profile: not valid JSON");
  MR_ASSIGN_OR_RETURN(JobProfile p, ProfileFromJsonObject(o, ""));
  return p;
}

}  // namespace mr::model
