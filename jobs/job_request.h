// What a user asks for when submitting a job, in plain C++ types, and the one place it becomes
// the JobSpec a master runs. `mr run`/`mr submit`'s flags (cli/job_options.h), the experiment
// runner (cli/experiment_cluster.cc) and any later front end fill a JobRequest; MakeJobSpec
// resolves its inputs through an InputSource, checks the output and validates the result with
// ValidateJobSpec, the checks the master's message checks and the simulator share
// (docs/jobs.md). Pure values and functions; thread-safe as the InputSource is.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "jobs/input_source.h"
#include "jobs/job.h"
#include "mr.pb.h"
#include "scheduler/job_params.h"

namespace mr::jobs {

// A map-side sort buffer of at least 64 KiB and at most 64 GiB.
inline constexpr uint64_t kMinSortBufferBytes = uint64_t{64} << 10;
inline constexpr uint64_t kMaxSortBufferBytes = uint64_t{64} << 30;
// Splits of at most 2^56 bytes (64 PiB): beyond that a split size is a typo.
inline constexpr uint64_t kMaxSplitBytes = uint64_t{1} << 56;
// A job without input has at most this many maps.
inline constexpr uint32_t kMaxNumMaps = 1000000;

struct JobRequest {
  std::string job;                  // the job's kind: a row of the job table (jobs/job_table.h)
  std::vector<std::string> inputs;  // as typed: files, directories, glob patterns
  bool recursive = false;           // read input directories' subdirectories too
  std::string output;               // as typed; must not exist
  uint32_t reducers = 1;
  uint64_t split_bytes = uint64_t{32} << 20;
  double slow_start = 0.05;
  uint64_t sort_buffer_bytes = uint64_t{100} << 20;
  std::string name;                 // "" = the job's kind
  // The job's own parameters: its job-table flags' parameters and any --param KEY=VALUE.
  Params params;
  uint32_t num_maps = 0;            // a job without input: how many maps (--maps)
  sched::JobParams scheduling;      // what policies and the simulator read (pool, weight, ...)
};

// The spec for `request`: its inputs resolved by source.Resolve (NotFound or PermissionDenied
// naming the input, as the source says) and made absolute, the output made absolute (without a
// trailing '/') and absent on this machine's file system (AlreadyExists otherwise), then
// ValidateJobSpec. Errors name the flag a user would fix ("missing --output DIR",
// "--reducers must be in 1..10000").
Result<proto::JobSpec> MakeJobSpec(const JobRequest& request, const InputSource& source);

// The semantic checks of a spec, shared by the client (MakeJobSpec) and the master's message
// checks (master/message_checks.h, which first bounds texts and counts): the job's kind known
// and its parameters accepted by the job table; reducers in 1..kMaxReducers; split size in
// [kMinSplitBytes, kMaxSplitBytes]; slow start in [0, 1]; sort buffer 0 (the worker's own) or
// in [kMinSortBufferBytes, kMaxSortBufferBytes]; at most kMaxNumMaps maps; and the per-job
// parameters' ranges (JobParamsFromSpec, then JobParams::Validate). NotFound for an unknown
// job, else InvalidArgument naming the field as `names` says: by its flag for a user
// ("--split-size must be at least 4KiB (4096 bytes)"), in words for the master's peers
// ("split size must be ..."; kKey reads as kName here). Does not look at the file system.
Status ValidateJobSpec(const proto::JobSpec& spec, sched::ParamNames names = sched::ParamNames::kFlag);

// NotFound "unknown job 'x' (known: ...)" unless the job table has `job`; "which job?" if empty.
Status CheckJobKind(const std::string& job);

}  // namespace mr::jobs
