// `mr logs`' question to the master (TaskAttemptsRequest, docs/protocol.md): every attempt of
// a job, or of one of its tasks, as the job's trace records it, with the shuffle server of
// the worker that ran it — which serves the attempt's log (FetchRequest.log). The trace is
// read and parsed off the state thread (TrackerOptions::offload); only the checks and the
// workers' names are the state thread's.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "common/status.h"
#include "master/tracker_state.h"
#include "mr.pb.h"
#include "trace/attempts.h"

namespace mr::master {

// At most this many attempts in one reply (about 2 MiB, inside the 4 MiB frame).
inline constexpr int kMaxTaskAttempts = 30000;

// What the off-thread part needs: a copy, taken on the state thread.
struct AttemptsQuery {
  uint64_t job_id = 0;
  std::string task;                  // as asked ("" = every task)
  std::optional<trace::TaskRef> only;
  std::string trace_path;
  std::function<void()> trace_written;  // waits for the trace's writer (job_trace.h)
};

// State thread. Errors: NotFound (no such job), InvalidArgument (task is not m-N or r-N).
Result<AttemptsQuery> MakeAttemptsQuery(const TrackerState& state, uint64_t job_id, const std::string& task);
// Any thread: reads and parses the trace; the attempts by task kind, index and attempt,
// without workers' names. Errors: the read's, NotFound (no attempt of that task yet).
Result<proto::TaskAttemptsReply> CollectTaskAttempts(const AttemptsQuery& q);
// State thread: each attempt's worker name, host and shuffle port, for workers still known.
void NameAttemptWorkers(const TrackerState& state, proto::TaskAttemptsReply& reply);

}  // namespace mr::master
