// RunMapTask: executes one map task attempt locally (no networking): reads the split
// through an InputSource a window at a time (jobs/split_reader.h: bounded memory, gzip
// inflated) and hands it to the job's mapper in runs of whole lines when the mapper has a
// MapBlock fast path, else line by line; partitions, sorts and combines the mapper's output
// in a bounded buffer (spilling sorted runs when it fills), merges the spills and writes the
// map output data file and then, last, its index (shuffle/map_output.h). A map-only job's
// map (no reducers) writes its records to its output file instead, formatted as the job's
// OutputFormat says. Before the index (or the end) it holds the slot as a slow or
// straggling worker would (worker/task/slot_hold.h). A job that runs programs gets a
// working directory for the attempt (worker/task/task_dir.h). Reentrant: tasks run
// concurrently on separate threads.
#pragma once

#include <atomic>
#include <functional>
#include <cstdint>
#include <string>

#include "common/status.h"
#include "common/straggler.h"
#include "jobs/input_split.h"
#include "jobs/job.h"
#include "shuffle/map_output.h"
#include "worker/task/task_counters.h"

namespace mr::worker {

class AttemptLog;  // worker/task/attempt_log.h

struct MapTaskSpec {
  uint64_t job_id = 0;
  uint32_t map_index = 0;
  uint32_t attempt = 0;
  const jobs::Job* job = nullptr;  // not owned; REQUIRES: non-null
  jobs::Params params;             // unused (the job was created from them)
  jobs::Split split;               // path empty => no input (synthetic)
  // Reads the split; not owned. REQUIRES: non-null when split.path is set.
  const jobs::InputSource* input_source = nullptr;
  uint32_t num_reduces = 1;  // 0: a map-only job, whose records go to output_path
  std::string output_path;   // map-only: the attempt's output file (its directory exists)
  uint64_t sort_buffer_bytes = 100 << 20;  // as the CLI default (--sort-buffer)
  std::string work_dir;
  // The output index is fsynced before it is renamed into place (WorkerOptions::
  // sync_map_outputs); false for a work directory that dies with its cluster.
  bool sync_output_index = true;
  double speed = 1.0;
  StragglerSpec straggler;  // the worker's --straggler-*: a delay drawn per attempt
  std::atomic<uint64_t>* progress = nullptr;  // ticked as input is read (may be null)
  // Set as input is read: bytes consumed / split length, in [0, 1]; a map without input
  // (synthetic) sets it through TaskContext::SetFraction. May be null.
  std::atomic<double>* fraction = nullptr;
  std::string* stderr_tail = nullptr;  // a child process's stderr tail (TaskContext); may be null
  AttemptLog* log = nullptr;  // the attempt's log: what its child programs write to stderr; may be null
  // Gets the task's status line (TaskContext::SetStatus) on the task thread; may be empty.
  std::function<void(std::string)> status_sink;
  // Who the attempt is, for the job's programs (jobs::TaskIdentity; working_dir is the
  // task's own, set here when the job NeedsWorkingDir).
  jobs::TaskIdentity identity;
};

struct MapTaskResult {
  shuffle::MapOutputIndex index;
  TaskCounters counters;
  // Seconds of real work (start to map output written), and of the holds after it: for
  // the worker's speed (slot_hold.h) and the injected straggler delay.
  double work_seconds = 0;
  double speed_hold_seconds = 0;
  double straggler_delay_seconds = 0;
};

// Writes MapOutputDataPath/IndexPath(work_dir, job_id, map_index, attempt), or for a
// map-only job output_path (the result's index then has no partitions).
// On failure or cancel (Aborted) removes its partial files. `cancel` may be null.
// Errors include the source's Read errors (NotFound for a missing input) and IoError when
// the input holds fewer bytes than the split (it shrank since it was split).
Result<MapTaskResult> RunMapTask(const MapTaskSpec& spec, const std::atomic<bool>* cancel);

}  // namespace mr::worker
