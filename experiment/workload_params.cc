#include "experiment/workload_params.h"

#include <string>

#include "model/slotted/slotted_workload.h"

namespace mr::experiment {

using sched::OptionSpec;
using sched::OptionType;

namespace {

// generator: synthetic (workload_synthetic.cc).
constexpr OptionSpec kSyntheticParams[] = {
    {"jobs", OptionType::kInt, "20", "number of jobs", 1, 100000},
    {"load", OptionType::kDouble, "0.6", "offered load of the busier station (map or shuffle)",
     0.001, 10},
    {"min_seconds", OptionType::kDuration, "1", "smallest job: seconds alone on the cluster", 0.001,
     86400},
    {"max_seconds", OptionType::kDuration, "60", "largest job: seconds alone on the cluster", 0.001,
     86400},
    {"map_heavy", OptionType::kDouble, "0.5", "fraction of map-heavy jobs (the rest shuffle-heavy)",
     0, 1},
    {"ratio_min", OptionType::kDouble, "0.15", "smaller over larger station time of a job, low end",
     0, 1},
    {"ratio_max", OptionType::kDouble, "0.4", "smaller over larger station time of a job, high end",
     0, 1},
    {"task_seconds", OptionType::kDuration, "1", "target slot-seconds of one map task", 0.001,
     3600},
    {"max_map_bytes", OptionType::kBytes, "20MB", "most output bytes of one map task", 1, 1e12},
    {"max_maps", OptionType::kInt, "400", "most map tasks of one job", 1, 100000},
    {"reducers", OptionType::kInt, "0", "reduce tasks per job; 0 = one per reduce slot", 0, 10000},
    {"reduce_seconds", OptionType::kDuration, "0", "seconds of work of one reduce task", 0, 86400},
};

// generator: asrpt (workload_asrpt.cc). kAsrptParams[0] is checked against the paper's
// workload names (CheckChoice).
constexpr OptionSpec kAsrptParams[] = {
    {"workload", OptionType::kString, "u1-9-u10-70",
     "the paper's workload: exp5-exp40, exp30-exp15, u1-9-u10-70 or u10-50-u10-20", 0, 0},
    {"jobs", OptionType::kInt, "30", "number of jobs", 1, 100000},
    {"load", OptionType::kDouble, "0.7",
     "offered load of the unified slots (map and reduce work over their slot-seconds per second)", 0.001,
     10},
    {"unit_seconds", OptionType::kDuration, "0.5",
     "slot-seconds of one unit of the paper (a map task; a reduce task has several)", 0.001, 3600},
    {"rate", OptionType::kDouble, "2", "arrivals per slot of the paper's generator, before scaling",
     0.001, 10000},
    {"max_reduce_tasks", OptionType::kInt, "10", "most reduce tasks of one job", 1, 1000},
};

// csv: FILE (workload_csv.cc) has no parameters.
constexpr std::span<const OptionSpec> kCsvParams{};

// swim: FILE (workload_swim.cc).
constexpr OptionSpec kSwimParams[] = {
    {"start", OptionType::kDuration, "0", "window start, trace seconds", 0, 1e8},
    {"duration", OptionType::kDuration, "1h", "window length, trace seconds", 1, 1e8},
    {"time_scale", OptionType::kDouble, "10", "trace seconds per live second", 0.001, 1e6},
    {"trace_input_min", OptionType::kBytes, "10B",
     "input bytes mapped to map_work_min (less is clipped)", 1, 1e15},
    {"trace_input_max", OptionType::kBytes, "100GB",
     "input bytes mapped to map_work_max (more is clipped)", 1, 1e15},
    {"map_work_min", OptionType::kDuration, "1", "map slot-seconds of the smallest job", 0.001,
     86400},
    {"map_work_max", OptionType::kDuration, "120", "map slot-seconds of the largest job", 0.001,
     86400},
    {"trace_shuffle_min", OptionType::kBytes, "10B", "shuffle bytes mapped to shuffle_min", 1,
     1e15},
    {"trace_shuffle_max", OptionType::kBytes, "100GB", "shuffle bytes mapped to shuffle_max", 1,
     1e15},
    {"shuffle_min", OptionType::kBytes, "1MB", "shuffle bytes of the smallest non-zero shuffle", 1,
     1e13},
    {"shuffle_max", OptionType::kBytes, "2GB", "shuffle bytes of the largest shuffle", 1, 1e13},
    {"task_seconds", OptionType::kDuration, "1", "target slot-seconds of one map task", 0.001,
     3600},
    {"max_map_bytes", OptionType::kBytes, "20MB", "most output bytes of one map task", 1, 1e12},
    {"max_maps", OptionType::kInt, "60", "most map tasks of one job", 1, 100000},
    {"reducers", OptionType::kInt, "0", "reduce tasks per job; 0 = one per reduce slot", 0, 10000},
    {"reduce_seconds", OptionType::kDuration, "0", "seconds of work of one reduce task", 0, 86400},
};

const OptionSpec* Find(std::span<const OptionSpec> specs, std::string_view name) {
  for (const OptionSpec& s : specs) {
    if (name == s.name) return &s;
  }
  return nullptr;
}

// Values a parameter must take beyond its type, checked where the file gives them.
Status CheckChoice(const OptionSpec* s, std::string_view text) {
  if (s == &kAsrptParams[0]) {
    Result<model::SlottedGenOptions> w = model::PaperWorkload(text);
    if (!w.ok()) return Status::InvalidArgument(w.status().message());
  }
  return Status::Ok();
}

std::string Names(std::span<const OptionSpec> specs) {
  std::string out;
  for (const OptionSpec& s : specs) out += (out.empty() ? "" : ", ") + std::string(s.name);
  return out.empty() ? "none" : out;
}

}  // namespace

std::string_view GeneratorNames() { return "synthetic, asrpt"; }

Result<std::span<const OptionSpec>> WorkloadParamSpecs(const WorkloadSpec& spec) {
  switch (spec.kind) {
    case WorkloadKind::kGenerator:
      if (spec.generator == "synthetic") return std::span<const OptionSpec>(kSyntheticParams);
      if (spec.generator == "asrpt") return std::span<const OptionSpec>(kAsrptParams);
      return Status::InvalidArgument("unknown generator '" + spec.generator +
                                     "' (known: " + std::string(GeneratorNames()) + ")");
    case WorkloadKind::kCsv:
      return kCsvParams;
    case WorkloadKind::kSwim:
      return std::span<const OptionSpec>(kSwimParams);
  }
  return Status::Internal("bad workload kind");
}

Result<sched::OptionValue> ParseWorkloadParam(std::span<const OptionSpec> specs,
                                              std::string_view name, std::string_view text) {
  const OptionSpec* s = Find(specs, name);
  if (s == nullptr) {
    return Status::InvalidArgument("unknown parameter '" + std::string(name) +
                                   "' (known: " + Names(specs) + ")");
  }
  MR_RETURN_IF_ERROR(CheckChoice(s, text));
  return sched::ParseOptionValue(*s, text);
}

Result<sched::PolicyOptions> ResolveWorkloadParams(const WorkloadSpec& spec) {
  MR_ASSIGN_OR_RETURN(std::span<const OptionSpec> specs, WorkloadParamSpecs(spec));
  sched::PolicyOptions out;
  for (const OptionSpec& s : specs) {
    if (s.default_text != nullptr) MR_RETURN_IF_ERROR(out.Set(s, s.default_text));
  }
  for (const auto& [name, text] : spec.params) {
    MR_ASSIGN_OR_RETURN(sched::OptionValue v, ParseWorkloadParam(specs, name, text));
    out.SetValue(name, std::move(v));
  }
  return out;
}

}  // namespace mr::experiment
