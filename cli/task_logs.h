// The work of `mr logs JOB [TASK]`: asks the master where each attempt of the job (or of
// one task) ran (TaskAttemptsRequest), then reads each attempt's log from the shuffle
// server of the worker that ran it (FetchRequest.log, shuffle/net/task_log_client.h) in
// bounded pieces, printing a header per attempt and the log as it arrives. An attempt whose
// log cannot be read (its worker is gone, does not answer within the timeout, or no longer
// has the log) gets one line saying so, and the others are still printed.
//
// With follow (`mr logs --follow`, as `tail -f`): an attempt that is RUNNING when its log
// has been read to its end is watched — every poll_seconds the log is read on from where it
// stopped and, when nothing new came, the master is asked whether the attempt still runs —
// until it ends; its last lines are then read and the next attempt follows. Bounded: a log is
// at most the worker's cap (1 MiB), each wait is bounded by the timeout, and it ends when the
// attempt does (or the user interrupts it). Attempts that start after the command was run
// are not picked up.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "client/master_client.h"
#include "common/auth.h"
#include "common/status.h"

namespace mr::cli {

struct TaskLogsOptions {
  uint64_t job = 0;
  std::string task;                 // "m-00003", "r-00000"; empty: every attempt of the job
  std::optional<uint32_t> attempt;  // only this attempt number
  std::optional<uint64_t> tail;     // only the last N lines of each log
  auth::ClusterToken token;         // the cluster's, for the workers' shuffle servers
  double timeout_seconds = 5;       // each wait for a worker (connect, each piece)
  bool follow = false;              // stream a running attempt's log until the attempt ends
  double poll_seconds = 0.25;       // follow: how often a log that did not grow is re-read
};

struct TaskLogsResult {
  int attempts = 0;    // attempts shown
  int unreadable = 0;  // of them, those whose log could not be read
};

// Errors (nothing printed): NotFound (no such job, no attempt of that task yet, no attempt
// with that number), InvalidArgument (a malformed task name), the master's errors, and
// ProtocolError when the master predates the request.
Result<TaskLogsResult> PrintTaskLogs(client::MasterClient& master, const TaskLogsOptions& options, std::ostream& out);

}  // namespace mr::cli
