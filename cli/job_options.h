// The options shared by `mr run` and `mr submit`: which job, its inputs and output, and its
// parameters, read into a JobRequest (jobs/job_request.h) and made a validated JobSpec. The
// per-job parameters' flags are generated from their table (scheduler/job_params.h), the
// job's own flags from the job table (jobs/job_table.h).
#pragma once

#include "cli/options.h"
#include "jobs/job_request.h"
#include "mr.pb.h"

namespace mr::cli {

void AddJobOptions(po::options_description& desc, po::positional_options_description& positional);
// The job-table flags ("--maps") of every job but the one args name (`mr run JOB`, or
// `--job JOB`): never suggested for a typo (FlagUsage::not_suggested). None when args
// name no job (then every job's flags may be meant).
std::vector<std::string> OtherJobsFlags(const Args& args);
// The request the flags in vm (parsed with AddJobOptions' options) ask for. InvalidArgument
// for a value the flags library could not check: a malformed byte size, --speculative other
// than on|off, a --param that is not KEY=VALUE; and for a job-table flag given to a job
// that does not declare it ("--reducer is streaming's flag, not wordcount's (did you mean
// --reducers?)"; the suggestions are the flags that job takes).
Result<jobs::JobRequest> JobRequestFromFlags(const po::variables_map& vm);
// JobRequestFromFlags, then MakeJobSpec on this machine's files (jobs::LocalInputs()): checks
// what can be checked before contacting a master: the job, inputs readable, output absent,
// every value in range. Paths become absolute.
Result<proto::JobSpec> BuildJobSpec(const po::variables_map& vm);

}  // namespace mr::cli
