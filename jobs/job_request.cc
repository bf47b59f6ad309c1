#include "jobs/job_request.h"

#include "common/file_util.h"
#include "jobs/job_spec_params.h"
#include "jobs/job_table.h"
#include "jobs/output_dir.h"

namespace mr::jobs {
namespace {

using sched::ParamNames;

Status Bad(const std::string& what) { return Status::InvalidArgument(what); }

// The subject of a message: the flag a user types, or the field in the master's words.
std::string Subject(ParamNames names, const char* flag, const char* words) {
  return names == ParamNames::kFlag ? std::string("--") + flag : words;
}

Status CheckSortBuffer(uint64_t bytes, ParamNames names) {
  const std::string subject = Subject(names, "sort-buffer", "sort buffer");
  if (bytes < kMinSortBufferBytes) return Bad(subject + " must be at least 64KiB");
  if (bytes > kMaxSortBufferBytes) return Bad(subject + " must be at most 64GiB");
  return Status::Ok();
}

// Reducers, split size, slow start, sort buffer and number of maps.
Status CheckShape(const proto::JobSpec& spec, ParamNames names) {
  // 0 reducers: a map-only job, which the streaming job supports (docs/streaming.md).
  const bool map_only = spec.reducers() == 0 && spec.job() == "streaming";
  if ((spec.reducers() < 1 && !map_only) || spec.reducers() > kMaxReducers) {
    return Bad(Subject(names, "reducers", "reducers") + " must be in 1.." + std::to_string(kMaxReducers));
  }
  const std::string split = Subject(names, "split-size", "split size");
  if (spec.split_bytes() < kMinSplitBytes) {
    return Bad(split + " must be at least 4KiB (" + std::to_string(kMinSplitBytes) + " bytes)");
  }
  if (spec.split_bytes() > kMaxSplitBytes) return Bad(split + " must be at most 64PiB");
  if (!(spec.slow_start() >= 0 && spec.slow_start() <= 1)) {
    return Bad(Subject(names, "slow-start", "slow-start") + " must be in [0, 1]");
  }
  if (spec.sort_buffer_bytes() != 0) MR_RETURN_IF_ERROR(CheckSortBuffer(spec.sort_buffer_bytes(), names));
  if (spec.num_maps() > kMaxNumMaps) {
    return Bad(Subject(names, "maps", "maps") + " must be at most " + std::to_string(kMaxNumMaps));
  }
  return Status::Ok();
}

}  // namespace

Status CheckJobKind(const std::string& job) {
  if (job.empty()) return Bad("which job? (known: " + JobNameList() + ")");
  if (FindJob(job) == nullptr) return Status::NotFound("unknown job '" + job + "' (known: " + JobNameList() + ")");
  return Status::Ok();
}

Status ValidateJobSpec(const proto::JobSpec& spec, ParamNames names) {
  MR_RETURN_IF_ERROR(CheckJobKind(spec.job()));
  MR_RETURN_IF_ERROR(CheckShape(spec, names));
  MR_RETURN_IF_ERROR(JobParamsFromSpec(spec).Validate(names));
  Params params(spec.params().begin(), spec.params().end());
  return CreateJob(spec.job(), params).status();
}

Result<proto::JobSpec> MakeJobSpec(const JobRequest& request, const InputSource& source) {
  MR_RETURN_IF_ERROR(CheckJobKind(request.job));
  proto::JobSpec spec;
  spec.set_job(request.job);
  if (!request.inputs.empty()) {
    MR_ASSIGN_OR_RETURN(std::vector<std::string> inputs, source.Resolve(request.inputs, request.recursive));
    for (const std::string& in : inputs) spec.add_inputs(AbsolutePath(in));
  }
  if (request.output.empty()) return Bad("missing --output DIR");
  // `--output out/` names the directory out; the master takes only the slashless form.
  std::string out = AbsolutePath(request.output);
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  if (OutputTaken(out)) return Status::AlreadyExists("output directory " + out + " already exists");
  spec.set_output(out);
  spec.set_reducers(request.reducers);
  spec.set_split_bytes(request.split_bytes);
  spec.set_slow_start(request.slow_start);
  // On the wire a zero sort buffer means the worker's own and a zero weight the default; a
  // request names its values, so a zero there is the user's, and out of range.
  MR_RETURN_IF_ERROR(CheckSortBuffer(request.sort_buffer_bytes, ParamNames::kFlag));
  spec.set_sort_buffer_bytes(request.sort_buffer_bytes);
  MR_RETURN_IF_ERROR(request.scheduling.Validate());
  spec.set_name(request.name.empty() ? request.job : request.name);
  JobParamsToSpec(request.scheduling, &spec);
  spec.set_num_maps(request.num_maps);
  spec.mutable_params()->insert(request.params.begin(), request.params.end());
  MR_RETURN_IF_ERROR(ValidateJobSpec(spec));
  return spec;
}

}  // namespace mr::jobs
