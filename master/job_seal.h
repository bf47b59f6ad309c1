// A job's seal: the part of its end that reads its trace, done off the state thread.
//
// When a job ends, the state thread releases its slots, traces job_end and flushes the trace
// (JobLifecycle::FinishJob). What remains needs the whole trace file, which grows with the
// job (61 MB for 2,000 maps × 100 reduces): the copy into OUTPUT/_trace.jsonl with the
// _SUCCESS marker, and the ARIA profile measured from the events. SealJobTrace does both
// with one read and one parse, on any thread, touching no master state; its result goes
// back to the state thread as a message (JobLifecycle::Sealed), which stores it and only
// then reports the job ended. Until then status shows the job RUNNING in phase "sealing".
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "common/status.h"
#include "jobs/output_store.h"

namespace mr::master {

// What the seal needs to know; copied out of the JobRecord on the state thread.
struct SealWork {
  uint64_t job_id = 0;
  std::string name;         // the job's name, the ARIA profile's key
  std::string trace_path;   // flushed: job_end is its last event
  std::string output;       // the output directory
  const jobs::OutputStore* store = nullptr;  // where it lives (master/job_output.h); not owned
  bool succeeded = false;   // only a succeeded job's output gets _SUCCESS and the copy
  // Blocks until the trace file holds every event flushed before the seal (the trace's
  // writer thread, master/trace_queue.h); unset: it does already.
  std::function<void()> trace_written;
};

struct SealResult {
  uint64_t job_id = 0;
  Status output;                            // writing _SUCCESS and _trace.jsonl
  std::optional<std::string> aria_profile;  // model::ProfileToJson; succeeded jobs only
  Status profile;                           // why there is no profile, if there is none
};

// Reads the trace once; for a succeeded job writes OUTPUT/_SUCCESS and OUTPUT/_trace.jsonl,
// removes OUTPUT/_temporary (all three through work.store), parses the events once and extracts the ARIA profile
// (model/makespan/profile_extract.h). Thread-safe; touches only those files.
SealResult SealJobTrace(const SealWork& work);

// Runs `work` off the state thread, then `done` on it. The master's server gives a worker
// thread and a post back to its event loop; unset (tests driving the tracker on one thread)
// both run at once, inline, in that order.
using Offload = std::function<void(std::function<void()> work, std::function<void()> done)>;

}  // namespace mr::master
