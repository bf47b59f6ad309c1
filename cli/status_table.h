// `mr status`'s text output (docs/web.md, "In the terminal"): the workers table, one row
// per job with its state and phase progress (the master's numbers, not recomputed), and for
// `mr status JOB` the detail under the row. Prints to stdout; thread-compatible.
#pragma once

#include <string>

#include "common/status.h"
#include "mr.pb.h"

namespace mr::cli {

// `mr status --state S --limit N`: which jobs the table shows.
struct JobFilter {
  enum class State { kAll, kRunning, kEnded };
  State state = State::kAll;
  int limit = 0;  // the newest N (highest ids) that pass `state`; 0: all of them
};
// "running" (PENDING or RUNNING), "ended" (SUCCEEDED, FAILED, KILLED), "all"; else
// InvalidArgument naming the three.
Result<JobFilter::State> ParseJobState(const std::string& text);
// Keeps in r the jobs f lets through, in their order (by id); returns how many it dropped.
int FilterJobs(const JobFilter& f, proto::StatusReply* r);

// The header line, the workers table and a row per job (with its error, if any).
void PrintStatusTable(const proto::StatusReply& r);
// Under a job's row: its phases and tasks, the latest failed attempt with its stderr tail,
// the sojourn time, the counters and the combine ratio.
void PrintJobDetail(const proto::JobStatus& st);

}  // namespace mr::cli
