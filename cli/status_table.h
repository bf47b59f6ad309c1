// `mr status`'s text output (docs/web.md, "In the terminal"): the workers table, one row
// per job with its state and phase progress (the master's numbers, not recomputed), and for
// `mr status JOB` the detail under the row. Prints to stdout; thread-compatible.
#pragma once

#include "mr.pb.h"

namespace mr::cli {

// The header line, the workers table and a row per job (with its error, if any).
void PrintStatusTable(const proto::StatusReply& r);
// Under a job's row: its phases and tasks, the latest failed attempt with its stderr tail,
// the sojourn time, the counters and the combine ratio.
void PrintJobDetail(const proto::JobStatus& st);

}  // namespace mr::cli
