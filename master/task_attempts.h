// `mr logs`' question to the master (TaskAttemptsRequest, docs/protocol.md): every attempt of
// a job, or of one of its tasks, as the job's trace records it, with the shuffle server of
// the worker that ran it — which serves the attempt's log (FetchRequest.log). Read-only; on
// the state thread (it reads the job's trace file, as /api/jobs/ID/trace does).
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"
#include "master/tracker_state.h"
#include "mr.pb.h"

namespace mr::master {

// At most this many attempts in one reply (about 2 MiB, inside the 4 MiB frame).
inline constexpr int kMaxTaskAttempts = 30000;

// The attempts of job `job_id` (all, or those of `task`: "m-00003", "r-00001"), by task
// kind, index and attempt. Errors: NotFound (no such job, or no attempt of that task yet),
// InvalidArgument (task is not m-N or r-N).
Result<proto::TaskAttemptsReply> TaskAttempts(const TrackerState& state, uint64_t job_id, const std::string& task);

}  // namespace mr::master
