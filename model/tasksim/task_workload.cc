#include "model/tasksim/task_workload.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/file_util.h"
#include "model/fluid/workload.h"

namespace mr::model {
namespace {

using nlohmann::json;

// A finite number >= lo from `entry[key]`, or InvalidArgument naming job i.
Result<double> Number(const json& entry, const char* key, size_t i, double lo) {
  auto it = entry.find(key);
  if (it == entry.end() || !it->is_number()) {
    return Status::InvalidArgument("job_list[" + std::to_string(i) + "]: missing or non-numeric '" +
                                   key + "'");
  }
  double v = it->get<double>();
  if (!std::isfinite(v) || v < lo) {
    return Status::InvalidArgument("job_list[" + std::to_string(i) + "]: '" + key +
                                   "' must be >= " + std::to_string(lo));
  }
  return v;
}

// Optional per-task durations `entry[key]`: absent = empty; else an array of finite
// numbers >= 0 (the simulator checks the count).
Result<std::vector<double>> Durations(const json& entry, const char* key, size_t i) {
  std::vector<double> out;
  auto it = entry.find(key);
  if (it == entry.end()) return out;
  const Status bad = Status::InvalidArgument("job_list[" + std::to_string(i) + "]: '" + key +
                                             "' must be an array of numbers >= 0");
  if (!it->is_array()) return bad;
  for (const json& v : *it) {
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0) return bad;
    out.push_back(v.get<double>());
  }
  return out;
}

// The job's parameters, one key per row of their table (scheduler/job_params.h): a string for
// text, a number for numbers and byte sizes, a whole number for counts, a number of seconds
// or a duration string ("90s", "+2h") for durations, true/false or "on"/"off" for a switch.
// Ranges are checked by the caller, once the hints are settled.
Status ParamKeys(const json& entry, const std::string& where, sched::JobParams& p) {
  // Before issue 24 the deadline's key was the JobSpec field's name: refused, not dropped.
  if (entry.contains("deadline_seconds")) {
    return Status::InvalidArgument(where + ": 'deadline_seconds' is now 'deadline' (seconds after arrival)");
  }
  for (const sched::JobParamRow& row : sched::JobParamTable()) {
    auto it = entry.find(row.key);
    if (it == entry.end()) continue;
    const std::string name = where + ": " + sched::JobParamName(row, sched::ParamNames::kKey);
    switch (row.type) {
      case sched::JobParamType::kText:
        if (!it->is_string()) return Status::InvalidArgument(name + " must be a string");
        p.*row.text = it->get<std::string>();
        break;
      case sched::JobParamType::kNumber:
      case sched::JobParamType::kBytes:
        if (!it->is_number()) return Status::InvalidArgument(name + " must be a number");
        p.*row.number = it->get<double>();
        break;
      case sched::JobParamType::kDuration:
        if (it->is_number()) {
          p.*row.number = it->get<double>();
        } else if (!it->is_string()) {
          return Status::InvalidArgument(name + " must be a number of seconds or a duration (\"90s\")");
        } else if (Status st = sched::SetJobParam(row, it->get<std::string>(), &p, sched::ParamNames::kKey);
                   !st.ok()) {
          return st.WithContext(where);
        }
        break;
      case sched::JobParamType::kCount:
        if (!it->is_number_integer() || it->get<int64_t>() < INT_MIN || it->get<int64_t>() > INT_MAX) {
          return Status::InvalidArgument(name + " must be a whole number");
        }
        p.*row.count = static_cast<int>(it->get<int64_t>());
        break;
      case sched::JobParamType::kSwitch:
        if (it->is_boolean()) {
          p.*row.on = it->get<bool>();
        } else if (!it->is_string()) {
          return Status::InvalidArgument(name + " must be true, false, \"on\" or \"off\"");
        } else if (Status st = sched::SetJobParam(row, it->get<std::string>(), &p, sched::ParamNames::kKey);
                   !st.ok()) {
          return st.WithContext(where);
        }
        break;
    }
  }
  return Status::Ok();
}

// The optional fields beyond workload.py's: replayed durations, a map-time law and the job's
// parameters (ParamKeys).
Status OptionalFields(const json& entry, size_t i, TaskJob& t) {
  MR_ASSIGN_OR_RETURN(t.map_durations, Durations(entry, "map_durations", i));
  MR_ASSIGN_OR_RETURN(t.reduce_durations, Durations(entry, "reduce_durations", i));
  const std::string where = "job_list[" + std::to_string(i) + "]";
  if (auto it = entry.find("map_time"); it != entry.end()) {
    if (!it->is_string()) return Status::InvalidArgument(where + ": 'map_time' must be a string");
    Result<MapTimeDist> law = ParseMapTimeDist(it->get<std::string>());
    if (!law.ok()) return law.status().WithContext(where);
    t.map_time = *law;
  }
  return ParamKeys(entry, where, t.params);
}

Result<TaskJob> BenchJob(const json& entry, size_t i, const TaskShape& shape) {
  if (!entry.is_object())
    return Status::InvalidArgument("job_list[" + std::to_string(i) + "] is not an object");
  TaskJob t;
  MR_ASSIGN_OR_RETURN(t.arrival, Number(entry, "arrival", i, 0));
  MR_ASSIGN_OR_RETURN(double maps, Number(entry, "maps", i, 1));
  MR_ASSIGN_OR_RETURN(double reducers, Number(entry, "reducers", i, 1));
  MR_ASSIGN_OR_RETURN(t.map_bytes, Number(entry, "map_bytes", i, 0));
  MR_ASSIGN_OR_RETURN(double map_total, Number(entry, "hint_map_seconds", i, 0));
  MR_RETURN_IF_ERROR(Number(entry, "hint_shuffle_bytes", i, 0).status());
  if (maps != std::floor(maps) || maps > 1e6 || reducers != std::floor(reducers) ||
      reducers > 1e5 || !(map_total > 0)) {
    return Status::InvalidArgument(
        "job_list[" + std::to_string(i) +
        "]: need whole 'maps' (<= 1e6) and 'reducers' (<= 1e5), hint_map_seconds > 0");
  }
  t.maps = static_cast<int>(maps);
  t.reducers = static_cast<int>(reducers);
  t.map_seconds = map_total / t.maps;
  t.reduce_seconds = shape.reduce_seconds;
  MR_RETURN_IF_ERROR(OptionalFields(entry, i, t));
  // The hints are the job's true totals, given to the policy only with shape.hints; the
  // reduce hint defaults to the shape's reduce seconds x reducers.
  if (!shape.hints) {
    t.params.hint_map_seconds = t.params.hint_shuffle_bytes = t.params.hint_reduce_seconds = 0;
  } else if (!entry.contains("hint_reduce_seconds")) {
    t.params.hint_reduce_seconds = t.reduce_seconds * t.reducers;
  }
  MR_RETURN_IF_ERROR(t.params.Validate(sched::ParamNames::kKey).WithContext("job_list[" + std::to_string(i) + "]"));
  return t;
}

}  // namespace

std::vector<TaskJob> TasksFromFluid(std::span<const TandemJob> jobs, const ClusterSpec& cluster,
                                    const TaskShape& shape) {
  const double slots = MapCapacity(cluster);
  const double bandwidth = ShuffleCapacity(cluster);
  int map_capable = 0;
  for (const WorkerSpec& w : ResolveWorkers(cluster)) map_capable += w.map_slots + w.unified_slots;
  const int maps = shape.maps_per_job > 0 ? shape.maps_per_job : map_capable;
  std::vector<TaskJob> out;
  out.reserve(jobs.size());
  for (const TandemJob& j : jobs) {
    TaskJob t;
    t.arrival = j.arrival;
    t.maps = maps;
    t.map_seconds = j.x * slots / maps;
    t.map_bytes = j.y * bandwidth / maps;
    t.reducers = shape.reducers;
    t.reduce_seconds = shape.reduce_seconds;
    if (shape.hints) {
      t.params.hint_map_seconds = j.x * slots;
      t.params.hint_shuffle_bytes = j.y * bandwidth;
      t.params.hint_reduce_seconds = t.reduce_seconds * t.reducers;
    }
    out.push_back(t);
  }
  return out;
}

TandemJob FluidSizes(const TaskJob& job, const ClusterSpec& cluster) {
  const double slots = MapCapacity(cluster);
  const double bandwidth = ShuffleCapacity(cluster);
  return {job.arrival, job.maps * job.map_seconds / slots, job.maps * job.map_bytes / bandwidth};
}

Result<std::vector<TaskJob>> ParseBenchWorkloadJson(std::string_view text, const TaskShape& shape) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::InvalidArgument("not valid JSON");
  auto list = doc.is_object() ? doc.find("job_list") : doc.end();
  if (list == doc.end() || !list->is_array()) {
    return Status::InvalidArgument(
        "expected an object with a 'job_list' array (bench/policies/workload.py)");
  }
  std::vector<TaskJob> out;
  for (size_t i = 0; i < list->size(); ++i) {
    MR_ASSIGN_OR_RETURN(TaskJob t, BenchJob((*list)[i], i, shape));
    out.push_back(t);
  }
  return out;
}

Result<std::vector<TaskJob>> LoadTaskWorkload(const std::string& path, const ClusterSpec& cluster,
                                              const TaskShape& shape) {
  if (!PathExists(path)) return Status::NotFound("workload file not found: " + path);
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') {
    if (shape.maps_per_job > 0) {
      return Status::InvalidArgument(
          path + ": --maps-per-job applies to CSV workloads; the JSON fixes each job's maps");
    }
    Result<std::vector<TaskJob>> jobs = ParseBenchWorkloadJson(text, shape);
    if (!jobs.ok()) return jobs.status().WithContext(path);
    return jobs;
  }
  Result<std::vector<TandemJob>> fluid = ParseWorkloadCsv(text);
  if (!fluid.ok()) return fluid.status().WithContext(path);
  return TasksFromFluid(*fluid, cluster, shape);
}

}  // namespace mr::model
