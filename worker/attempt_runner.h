// RunAttempt: runs one map or reduce attempt to its end in the calling thread (a slot
// thread) and returns its final TaskReport: SUCCEEDED with counters (and partition sizes
// for a map); FAILED with the error (a watchdog-cancelled attempt says "no progress for N
// s"); KILLED when the master killed this attempt (its partial output is removed), or when
// a reduce's input must be fetched again (the reducer goes back to fetching). A reduce
// reads its runs and refetches bad local copies through `fetches`.
// Thread-safe: attempts run concurrently, each with its own watch.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "common/clock.h"
#include "common/straggler.h"
#include "jobs/input_source.h"
#include "jobs/output_store.h"
#include "mr.pb.h"
#include "shuffle/net/fetch_scheduler.h"
#include "worker/attempt_watch.h"
#include "worker/task/map_task.h"

namespace mr::worker {

struct AttemptContext {
  std::string work_dir;
  double speed = 1.0;
  StragglerSpec straggler;                   // the worker's --straggler-* (maps only)
  uint64_t sort_buffer_bytes = 0;            // 0 = the job's setting
  bool sync_map_outputs = true;              // WorkerOptions::sync_map_outputs
  const Clock* clock = nullptr;              // the master's clock, for report times
  shuffle::FetchScheduler* fetches = nullptr;  // a reduce's runs
  double task_timeout = 0;                   // for the report of a timed-out attempt
  // Where a map reads its split; not owned. The local file system unless a test puts in
  // another, as leveldb's Options::env defaults to Env::Default().
  const jobs::InputSource* input_source = &jobs::LocalInputs();
  // A split whose host is a data server ("HOST:PORT", jobs::Split::host) on another host
  // than this worker's `host` is read through remote_inputs(that server); one on this host,
  // or with no host, through input_source (local data preferred). Unset: always input_source.
  std::function<Result<const jobs::InputSource*>(const std::string& server)> remote_inputs;
  // The store of a job whose spec names an output server (worker/task_output.h): a reduce's
  // (or a map-only job's map's) file is pushed there. Unset: such a task fails.
  std::function<Result<const jobs::OutputStore*>(const std::string& server)> remote_outputs;
  std::string host;  // the address this worker advertises (mr worker --host)
};

// Whether a split held by `split_host` ("HOST:PORT" of a data server, or "") is read from
// the network by a worker that advertises `worker_host`: only when it names another host.
bool ReadsRemotely(const std::string& split_host, const std::string& worker_host);

// The map task a MAP assignment describes, as RunAttempt runs it: the split (its host
// included) read through ctx.input_source, the job's reducers and sort buffer (the
// worker's --sort-buffer over the job's), the worker's speed and straggler injection.
// Progress, fraction and stderr tail are left null for the caller to point at its watch.
MapTaskSpec MakeMapTaskSpec(const proto::Assignment& a, const AttemptContext& ctx, const jobs::Job& job);

// Who the attempt an assignment describes is, as its task's programs see it.
jobs::TaskIdentity IdentityOf(const proto::Assignment& a);

// REQUIRES: ctx.clock and ctx.fetches non-null and alive for the call.
proto::TaskReport RunAttempt(const proto::Assignment& a, const AttemptContext& ctx, AttemptWatch& watch);

}  // namespace mr::worker
