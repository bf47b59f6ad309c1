#include "model/makespan/batch_jobs_file.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "common/file_util.h"
#include "model/makespan/profile_json.h"

namespace mr::model {

using nlohmann::json;

namespace {

constexpr int64_t kMaxTasks = 10000000;
const std::set<std::string> kKeys = {"name",           "maps",          "map_seconds",      "reduces",
                                     "reduce_seconds", "map_durations", "reduce_durations", "profile"};

Result<std::vector<double>> Durations(const json& o, const char* key, const std::string& where) {
  const json& v = o.at(key);
  if (!v.is_array()) return Status::InvalidArgument(where + ": '" + key + "' must be a list of seconds");
  if (v.size() > static_cast<size_t>(kMaxTasks)) return Status::InvalidArgument(where + ": '" + key + "' is too long");
  std::vector<double> out;
  out.reserve(v.size());
  for (const json& d : v) {
    if (!d.is_number() || !std::isfinite(d.get<double>()) || d.get<double>() < 0) {
      return Status::InvalidArgument(where + ": '" + key + "' must hold only numbers >= 0");
    }
    out.push_back(d.get<double>());
  }
  return out;
}

// `count` tasks of `seconds` each, from "COUNT_KEY" and "SECONDS_KEY".
Result<std::vector<double>> EqualTasks(const json& o, const char* count_key, int64_t min_count,
                                       const char* seconds_key, const std::string& where) {
  const int64_t none = 0;  // only reduces may be left out (a map-only job)
  MR_ASSIGN_OR_RETURN(int64_t count,
                      JsonInteger(o, count_key, min_count, kMaxTasks, where, min_count == 0 ? &none : nullptr));
  if (count == 0) {
    if (o.contains(seconds_key)) return Status::InvalidArgument(where + ": '" + seconds_key + "' with no task");
    return std::vector<double>{};
  }
  MR_ASSIGN_OR_RETURN(double seconds, JsonNumber(o, seconds_key, where));
  if (seconds < 0) return Status::InvalidArgument(where + ": '" + seconds_key + "' must be >= 0");
  return std::vector<double>(count, seconds);
}

Result<BatchJob> ParseJob(const json& o, const std::string& where) {
  if (!o.is_object()) return Status::InvalidArgument(where + ": must be a JSON object");
  for (const auto& [key, value] : o.items()) {
    if (!kKeys.count(key)) {
      return Status::InvalidArgument(where + ": unknown key '" + key +
                                     "' (known: name, maps, map_seconds, reduces, reduce_seconds, map_durations, "
                                     "reduce_durations, profile)");
    }
  }
  BatchJob job;
  job.name = o.value("name", "");
  if (o.contains("profile")) {
    if (o.size() > (o.contains("name") ? 2u : 1u)) {
      return Status::InvalidArgument(where + ": a job given by its profile has no other key but its name");
    }
    MR_ASSIGN_OR_RETURN(JobProfile p, ProfileFromJsonObject(o.at("profile"), where));
    if (job.name.empty()) job.name = p.name;
    p.name = job.name;
    BatchJob from = BatchJobFromProfile(p);
    return from;
  }
  const bool map_list = o.contains("map_durations"), reduce_list = o.contains("reduce_durations");
  if (map_list && (o.contains("maps") || o.contains("map_seconds"))) {
    return Status::InvalidArgument(where + ": give 'map_durations' or 'maps' and 'map_seconds', not both");
  }
  if (reduce_list && (o.contains("reduces") || o.contains("reduce_seconds"))) {
    return Status::InvalidArgument(where + ": give 'reduce_durations' or 'reduces' and 'reduce_seconds', not both");
  }
  if (map_list) {
    MR_ASSIGN_OR_RETURN(job.map_durations, Durations(o, "map_durations", where));
    if (job.map_durations.empty()) return Status::InvalidArgument(where + ": 'map_durations' is empty");
  } else {
    MR_ASSIGN_OR_RETURN(job.map_durations, EqualTasks(o, "maps", 1, "map_seconds", where));
  }
  if (reduce_list) {
    MR_ASSIGN_OR_RETURN(job.reduce_durations, Durations(o, "reduce_durations", where));
  } else {
    MR_ASSIGN_OR_RETURN(job.reduce_durations, EqualTasks(o, "reduces", 0, "reduce_seconds", where));
  }
  return job;
}

bool AllEqual(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [&](double d) { return d == v.front(); });
}

}  // namespace

Result<std::vector<BatchJob>> ParseBatchJobs(std::string_view text, const std::string& source) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::InvalidArgument(source + ": not valid JSON");
  if (!doc.is_object() || !doc.contains("jobs") || !doc.at("jobs").is_array()) {
    return Status::InvalidArgument(source + ": expected a JSON object with a \"jobs\" list");
  }
  const json& list = doc.at("jobs");
  if (list.empty()) return Status::InvalidArgument(source + ": the \"jobs\" list is empty");
  std::vector<BatchJob> jobs;
  std::set<std::string> names;
  for (size_t i = 0; i < list.size(); ++i) {
    std::string where = source + ": job " + std::to_string(i + 1);
    const json& o = list[i];
    if (o.is_object() && o.contains("name")) {
      if (!o.at("name").is_string() || o.at("name").get<std::string>().empty()) {
        return Status::InvalidArgument(where + ": 'name' must be a non-empty string");
      }
      where += " (" + o.at("name").get<std::string>() + ")";
    }
    MR_ASSIGN_OR_RETURN(BatchJob job, ParseJob(o, where));
    if (job.name.empty()) job.name = "J" + std::to_string(i + 1);
    if (!names.insert(job.name).second) {
      return Status::InvalidArgument(where + ": the name '" + job.name + "' is used twice");
    }
    jobs.push_back(std::move(job));
  }
  return jobs;
}

Result<std::vector<BatchJob>> LoadBatchJobs(const std::string& path) {
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  return ParseBatchJobs(text, path);
}

std::string BatchJobsToJson(const std::vector<BatchJob>& jobs) {
  json list = json::array();
  for (const BatchJob& j : jobs) {
    json o{{"name", j.name}};
    if (j.profile) {
      o["profile"] = ProfileJsonObject(*j.profile);
    } else {
      if (AllEqual(j.map_durations)) {
        o["maps"] = j.map_durations.size();
        o["map_seconds"] = j.map_durations.front();
      } else {
        o["map_durations"] = j.map_durations;
      }
      if (j.reduce_durations.empty() || AllEqual(j.reduce_durations)) {
        o["reduces"] = j.reduce_durations.size();
        if (!j.reduce_durations.empty()) o["reduce_seconds"] = j.reduce_durations.front();
      } else {
        o["reduce_durations"] = j.reduce_durations;
      }
    }
    list.push_back(std::move(o));
  }
  return json{{"jobs", list}}.dump(1) + "\n";
}

}  // namespace mr::model
