// The options shared by `mr run` and `mr submit`: which job, its inputs and output, and its
// parameters, read into a JobRequest (jobs/job_request.h) and made a validated JobSpec. The
// per-job parameters' flags are generated from their table (scheduler/job_params.h), the
// job's own flags from the job table (jobs/job_table.h).
#pragma once

#include "cli/options.h"
#include "jobs/job_request.h"
#include "jobs/sized_defaults.h"
#include "mr.pb.h"

namespace mr::cli {

void AddJobOptions(po::options_description& desc, po::positional_options_description& positional);
// The job-table flags ("--maps") of every job but the one args name (`mr run JOB`, or
// `--job JOB`): never suggested for a typo (FlagUsage::not_suggested). None when args
// name no job (then every job's flags may be meant).
std::vector<std::string> OtherJobsFlags(const Args& args);
// The request the flags in vm (parsed with AddJobOptions' options) ask for. InvalidArgument
// for a value the flags library could not check: a malformed byte size, --speculative other
// than on|off, a --param that is not KEY=VALUE, a per-job parameter out of its range or
// contradicting another (JobParams::Validate: --metric tardiness without --deadline, ...);
// and for a job-table flag given to a job that does not declare it ("--reducer is
// streaming's flag, not wordcount's (did you mean --reducers?)"; the suggestions are the
// flags that job takes).
Result<jobs::JobRequest> JobRequestFromFlags(const po::variables_map& vm);
// JobRequestFromFlags, then MakeJobSpec on this machine's files (jobs::LocalInputs()): checks
// what can be checked before contacting a master: the job, inputs readable, output absent,
// every value in range. Paths become absolute. With `slots` (the cluster the job will run on,
// known for mr run's embedded cluster), --split-size, --reducers and --sort-buffer left at
// their defaults are derived from the input's size and those slots (jobs/sized_defaults.h).
Result<proto::JobSpec> BuildJobSpec(const po::variables_map& vm, const jobs::ClusterSlots* slots = nullptr);
// --deadline as a duration after submission, the form a JobSpec carries (seconds after the
// master accepts the job, on the master and in the simulator alike): an absolute time
// ("2026-05-01T12:00:00Z", "2026-05-01T14:00+02:00", local time without a zone, or
// "@EPOCH_SECONDS") becomes its distance from `now` (epoch seconds, this machine's clock), in
// seconds; anything else is returned as given, for the parameter's row to parse ("90", "90s",
// "+90s", "2h"). InvalidArgument for an absolute time not after `now` or a malformed one.
Result<std::string> DeadlineAfterSubmission(std::string_view text, double now);

}  // namespace mr::cli
