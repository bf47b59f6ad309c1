// A job's seal: the part of its end that touches its whole trace, done off the state thread.
//
// When a job ends, the state thread releases its slots, traces job_end and flushes the trace
// (JobLifecycle::FinishJob). A failed or killed job's output is removed here, through its
// store (a data server may hang for its I/O timeout). What remains grows with the job (61 MB of trace for 2,000 maps ×
// 100 reduces): the copy of the trace into OUTPUT/_trace.jsonl with the _SUCCESS marker, and
// the ARIA profile. The profile was folded while the trace was written (the job's
// model::ProfileFold, fed by the trace's writer thread), so the seal reads it there; only a
// job restored after a master restart, whose fold missed the events before it, has its trace
// file parsed (model::ExtractProfile, the same rules: the fold's profile is the parse's). The
// copy is a file copy through the job's OutputStore (PutFile: in the kernel on a local
// store), never a read into memory. SealJobTrace runs on any thread, touching no master
// state; its result goes back to the state thread as a message (JobLifecycle::Sealed), which
// stores it and only then reports the job ended. Until then status shows the job RUNNING in
// phase "sealing".
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "common/status.h"
#include "jobs/output_store.h"
#include "model/makespan/profile_fold.h"

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
  // writer thread, master/trace_queue.h), and so the fold has seen them; unset: it does.
  std::function<void()> trace_written;
  // The job's profile folded from its first event; null: parse the trace file.
  std::shared_ptr<const model::ProfileFold> profile_fold;
};

struct SealResult {
  uint64_t job_id = 0;
  Status output;                            // writing _SUCCESS and _trace.jsonl; a failed job's removal
  std::optional<std::string> aria_profile;  // model::ProfileToJson; succeeded jobs only
  Status profile;                           // why there is no profile, if there is none
  bool parsed = false;                      // the profile came from parsing the file
};

// For a succeeded job: writes OUTPUT/_SUCCESS, copies the trace to OUTPUT/_trace.jsonl,
// removes OUTPUT/_temporary (all three through work.store), and measures the ARIA profile
// (from the fold, else by parsing the trace: model/makespan/profile_extract.h). For a failed
// or killed job: removes OUTPUT whole through work.store (nothing if it is null), so a
// data server that hangs holds this thread for its I/O timeout, not the state thread.
// Thread-safe; touches only those files.
SealResult SealJobTrace(const SealWork& work);

// Runs `work` off the state thread, then `done` on it. The master's server gives a worker
// thread and a post back to its event loop; unset (tests driving the tracker on one thread)
// both run at once, inline, in that order.
using Offload = std::function<void(std::function<void()> work, std::function<void()> done)>;

}  // namespace mr::master
