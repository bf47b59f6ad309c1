// Where a task attempt's log lives on the worker that ran it, and its bounds (`mr logs`,
// docs/protocol.md "Task logs"). The log is one file per attempt, WORK_DIR/logs/jN/ATTEMPT.log
// (ATTEMPT as "m-00003-1": kind, index, attempt): what the task's child programs wrote to
// stderr (a streaming child's stdout is its records, not a log) and the worker's own lines
// about the attempt. It lives outside the job's directory (shuffle::MapOutputDir), so it
// outlasts the job; PruneTaskLogs bounds how many jobs' logs a worker keeps. The writer is
// worker/task/attempt_log.h, the reader the shuffle server (FetchRequest.log); the paths
// come from numeric ids only, never from a peer's strings.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"

namespace mr::shuffle {

// At most this many bytes of one attempt's log are kept: the first ones, then one line
// saying the rest was dropped (the log's start shows how the task began, and a failed
// attempt's last stderr lines travel with its report to `mr status JOB`).
inline constexpr uint64_t kTaskLogCapBytes = 1u << 20;
// The most bytes of a log one TaskLogRequest gets back.
inline constexpr uint32_t kTaskLogChunkBytes = 256u << 10;
// A worker keeps the logs of its most recently started jobs, this many, and of those only
// the newest that fit in this many bytes together (the newest job's are always kept).
inline constexpr int kTaskLogJobsKept = 64;
inline constexpr uint64_t kTaskLogBytesKept = 256ull << 20;

// WORK_DIR/logs: every job's logs.
std::string TaskLogRoot(const std::string& work_dir);
// WORK_DIR/logs/jN: one job's logs.
std::string TaskLogJobDir(const std::string& work_dir, uint64_t job_id);
// WORK_DIR/logs/jN/m-00003-1.log (r- for a reduce).
std::string TaskLogPath(const std::string& work_dir, uint64_t job_id, bool is_map, uint32_t index, uint32_t attempt);

// Removes every job's log directory under TaskLogRoot(work_dir) but the `keep` most
// recently modified (ties: the higher job id is kept), and of those any beyond the newest
// whose files together hold at most `keep_bytes` (the newest is kept whatever its size).
// Entries that are not a job's log directory are left alone. Returns the first error;
// goes on past it.
Status PruneTaskLogs(const std::string& work_dir, int keep, uint64_t keep_bytes = kTaskLogBytesKept);

}  // namespace mr::shuffle
