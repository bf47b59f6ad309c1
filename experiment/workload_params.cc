#include "experiment/workload_params.h"

#include <algorithm>
#include <string>

#include "common/file_util.h"
#include "experiment/workload_sources.h"
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
// workload names (CheckAsrptParam).
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

// generator: makespan (workload_makespan.cc). kMakespanParams[0] is checked against the
// paper's workload names (CheckMakespanParam).
constexpr OptionSpec kMakespanParams[] = {
    {"workload", OptionType::kString, "synthetic1-bimodal",
     "the makespan paper's batch: synthetic1-unimodal, synthetic1-bimodal, synthetic2, yahoo-unimodal, "
     "yahoo-bimodal or facebook",
     0, 0},
    {"jobs", OptionType::kInt, "0", "number of jobs; 0 = the paper's 100 (facebook: only its 100)", 0, 100000},
    {"time_scale", OptionType::kDouble, "0.001", "live seconds per time unit of the paper's task durations",
     1e-9, 1e6},
};

Status CheckMakespanParam(std::string_view param, std::string_view text) {
  return param == kMakespanParams[0].name ? CheckMakespanWorkloadName(text) : Status::Ok();
}

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

// The paper's workload names (kAsrptParams[0]).
Status CheckAsrptParam(std::string_view param, std::string_view text) {
  if (param != kAsrptParams[0].name) return Status::Ok();
  Result<model::SlottedGenOptions> w = model::PaperWorkload(text);
  return w.ok() ? Status::Ok() : Status::InvalidArgument(w.status().message());
}

// File sources: the file read whole, then parsed by the source.
Result<JobList> LoadCsv(const WorkloadSpec& spec, const sched::PolicyOptions&, const ClusterShape&,
                        ImportSummary*) {
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(spec.path));
  return ParseJobCsv(text, spec.path);
}

Result<JobList> LoadSwim(const WorkloadSpec& spec, const sched::PolicyOptions& params, const ClusterShape& cluster,
                         ImportSummary* summary) {
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(spec.path));
  return MapSwimTrace(text, spec.path, params, cluster, summary);
}

template <Result<JobList> (*kGenerate)(const sched::PolicyOptions&, uint64_t, const ClusterShape&, ImportSummary*)>
Result<JobList> Generate(const WorkloadSpec& spec, const sched::PolicyOptions& params, const ClusterShape& cluster,
                         ImportSummary* summary) {
  return kGenerate(params, spec.seed, cluster, summary);
}

constexpr WorkloadSource kSources[] = {
    {WorkloadKind::kGenerator, "synthetic",
     "seeded Poisson arrivals at a target load of the cluster, log-uniform sizes, map-heavy and shuffle-heavy jobs",
     kSyntheticParams, nullptr, Generate<GenerateSynthetic>},
    {WorkloadKind::kGenerator, "asrpt",
     "the ASRPT paper's workloads (the slotted model's generator) at a target load of the unified slots",
     kAsrptParams, CheckAsrptParam, Generate<GenerateAsrpt>},
    {WorkloadKind::kGenerator, "makespan",
     "the makespan paper's batches (Synthetic1, Synthetic2, Yahoo! M45, Facebook 2009), all at time 0, scaled in time",
     kMakespanParams, CheckMakespanParam, Generate<GenerateMakespanBatch>},
    {WorkloadKind::kCsv, "csv",
     "one job a line: arrival,maps,map_seconds,shuffle_bytes,reducers,reduce_seconds, then optional per-job "
     "parameter columns (weight, metric, deadline, ...)",
     kCsvParams, nullptr, LoadCsv},
    {WorkloadKind::kSwim, "swim",
     "a SWIM trace (Facebook 2009 samples): a window compressed in time, sizes mapped onto ranges", kSwimParams,
     nullptr, LoadSwim},
};

const OptionSpec* Find(std::span<const OptionSpec> specs, std::string_view name) {
  for (const OptionSpec& s : specs) {
    if (name == s.name) return &s;
  }
  return nullptr;
}

std::string Names(std::span<const OptionSpec> specs) {
  std::string out;
  for (const OptionSpec& s : specs) out += (out.empty() ? "" : ", ") + std::string(s.name);
  return out.empty() ? "none" : out;
}

}  // namespace

std::span<const WorkloadSource> WorkloadSources() { return kSources; }

const WorkloadSource* FindWorkloadSource(const WorkloadSpec& spec) {
  for (const WorkloadSource& s : kSources) {
    if (s.kind == spec.kind && (s.kind != WorkloadKind::kGenerator || spec.generator == s.name)) return &s;
  }
  return nullptr;
}

std::string SourceKey(const WorkloadSource& source) {
  return source.kind == WorkloadKind::kGenerator ? "generator: " + std::string(source.name)
                                                 : std::string(source.name) + ": FILE";
}

std::vector<std::string_view> WorkloadSourceKeys() {
  std::vector<std::string_view> keys;
  for (const WorkloadSource& s : kSources) {
    std::string_view key = s.kind == WorkloadKind::kGenerator ? "generator" : s.name;
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  }
  return keys;
}

std::string GeneratorNames() {
  std::string out;
  for (const WorkloadSource& s : kSources) {
    if (s.kind == WorkloadKind::kGenerator) out += (out.empty() ? "" : ", ") + std::string(s.name);
  }
  return out;
}

Result<std::span<const OptionSpec>> WorkloadParamSpecs(const WorkloadSpec& spec) {
  const WorkloadSource* source = FindWorkloadSource(spec);
  if (source != nullptr) return source->params;
  if (spec.kind == WorkloadKind::kGenerator) {
    return Status::InvalidArgument("unknown generator '" + spec.generator + "' (known: " + GeneratorNames() + ")");
  }
  return Status::Internal("bad workload kind");
}

Result<sched::OptionValue> ParseWorkloadParam(const WorkloadSource& source, std::string_view name,
                                              std::string_view text) {
  const OptionSpec* s = Find(source.params, name);
  if (s == nullptr) {
    return Status::InvalidArgument("unknown parameter '" + std::string(name) + "' (known: " + Names(source.params) +
                                   ")");
  }
  if (source.check != nullptr) MR_RETURN_IF_ERROR(source.check(name, text));
  return sched::ParseOptionValue(*s, text);
}

Result<sched::PolicyOptions> ResolveWorkloadParams(const WorkloadSpec& spec) {
  MR_ASSIGN_OR_RETURN(std::span<const OptionSpec> specs, WorkloadParamSpecs(spec));
  const WorkloadSource& source = *FindWorkloadSource(spec);
  sched::PolicyOptions out;
  for (const OptionSpec& s : specs) {
    if (s.default_text != nullptr) MR_RETURN_IF_ERROR(out.Set(s, s.default_text));
  }
  for (const auto& [name, text] : spec.params) {
    MR_ASSIGN_OR_RETURN(sched::OptionValue v, ParseWorkloadParam(source, name, text));
    out.SetValue(name, std::move(v));
  }
  return out;
}

}  // namespace mr::experiment
