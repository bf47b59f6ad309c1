// Whether a job's output directory is taken. Hadoop refuses a job whose output directory
// exists; so do the client and the master. One exception: a directory that holds nothing but
// an empty `_temporary` is what a submit leaves when its master is killed after claiming the
// directory and before storing the job (docs/reliability.md, "The fault sweep"). No job
// wrote there, so it does not count as existing output: the client lets the submit through,
// and the master takes it over unless one of its own jobs (running, or recovered after a
// restart, whose `_temporary` is empty until a reduce writes) names it.
#pragma once

#include <string>

#include "common/status.h"

namespace mr::jobs {

// True for a directory whose only entry is an empty directory `_temporary`.
bool IsUnclaimedOutput(const std::string& dir);

// The output directory is taken: it exists and is not unclaimed.
bool OutputTaken(const std::string& dir);

// Claims dir for a job by making dir/_temporary. The directory appears holding its empty
// `_temporary` or not at all: both are made under a hidden sibling (".NAME.claim-RANDOM")
// that is then renamed to dir, so a process killed half-way never leaves an empty dir
// behind, which would be taken (found by scripts/fault-sweep.sh --mb 48). An unclaimed dir
// is taken over as it is. Errors: AlreadyExists if dir is taken; IoError from the file system.
Status ClaimOutput(const std::string& dir);

}  // namespace mr::jobs
