// The job table: one row per built-in job, the only place a job's name, summary, flags
// and factory are written. CreateJob(), KnownJobs(), the job flags of `mr run` and
// `mr submit` and their "known: ..." texts all read it. Adding a job is one file (its Job
// class and factory) plus one row in jobs/job_table.cc (docs/jobs.md, "Adding a job").
// The table is constant; every function here is thread-safe.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "common/status.h"
#include "jobs/job.h"

namespace mr::jobs {

// The parameter of a flag that sets the job spec's number of maps (JobSpec.num_maps, for
// a job without input) rather than a job parameter.
inline constexpr char kNumMapsParam[] = "num_maps";

enum class JobFlagType {
  kString,  // passed on as given
  kUint,    // a non-negative 32-bit integer
  kBytes,   // a byte size ("64MiB"), passed on as a decimal number of bytes
};

// A job-specific flag of `mr run` / `mr submit`: --name sets parameter `param`.
struct JobFlag {
  const char* name;          // without "--"
  JobFlagType type;
  const char* default_text;  // nullptr: the parameter is absent unless given
  const char* help;          // shown as "JOB: help"
  const char* param;         // the Params key, or kNumMapsParam
};

struct JobRow {
  const char* name;     // `mr run NAME`; the factory hands it to the Job, whose name() returns it
  const char* summary;  // one line
  std::span<const JobFlag> flags;
  // Builds the job from params that hold only the row's flags' parameters and generic ones.
  Result<std::unique_ptr<Job>> (*create)(std::string_view name, const Params& params);
};

// Every job, in the order help texts list them.
std::span<const JobRow> JobTable();
// The row named `name`, or nullptr.
const JobRow* FindJob(std::string_view name);
// Every job's name, comma-separated in table order: "wordcount, sort, ...".
std::string JobNameList();

}  // namespace mr::jobs
