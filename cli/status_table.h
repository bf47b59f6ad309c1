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

// The cells whose meaning is the same under every policy (docs/web.md, "In the terminal"):
// "w3": a worker's id as every view shows it, beside its name (WorkerRow.name).
std::string WorkerIdCell(uint32_t id);
// "240 maps/s/slot": finished maps per second of one map slot, measured; "-" before any.
std::string MapRateCell(double maps_per_slot_second);
// The shuffle share the policy gives a running job ("1.00", "0.00": waits its turn), or "-"
// when it has no map output waiting to be fetched (the share then applies to nothing) or
// has ended.
std::string ShareCell(const proto::JobStatus& st);
// "online 12.0s 3.0 MiB" (source, map slot-seconds, shuffle bytes); "n/a under fifo" when
// the job's policy reads no estimates; "-" when there is none yet.
std::string EstimateCell(const proto::JobStatus& st);
// The sojourn time with what it measures, or "-" and why there is none.
std::string SojournText(const proto::JobStatus& st);

// The header line, the workers table and a row per job (with its error, if any).
void PrintStatusTable(const proto::StatusReply& r);
// Under a job's row: its phases and tasks, the latest failed attempt with its stderr tail,
// the sojourn time, the counters and the combine ratio.
void PrintJobDetail(const proto::JobStatus& st);

}  // namespace mr::cli
