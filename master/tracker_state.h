// The master's mutable state that every part of the JobTracker works on: jobs, registered
// workers, shuffle shares and id counters, with the clock and options they are read with.
// Plain data: the parts (job_lifecycle.h, task_reports.h, worker_registry.h, ...) own the
// rules. Not thread-safe: the master touches it from its single state thread only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/log_histogram.h"
#include "jobs/input_source.h"
#include "jobs/output_store.h"
#include "master/job.h"
#include "master/job_seal.h"
#include "master/trace_queue.h"
#include "mr.pb.h"
#include "scheduler/util/map_rate.h"
#include "scheduler/snapshot.h"
#include "scheduler/stages/speculator.h"

namespace mr::master {

struct WorkerRecord {
  WorkerId id = 0;
  proto::RegisterWorker info;
  WorkerLabels labels;  // info.labels, checked and sorted once at registration
  int running_map = 0;
  int running_reduce = 0;
  int running_unified = 0;
  double last_heartbeat = 0;
  double shuffle_bytes_sent = 0;
  std::vector<proto::Assignment> outbox_assignments;   // reduce placements
  std::vector<proto::MapOutputLocation> outbox_locations;
  std::vector<uint64_t> outbox_finished;
  std::vector<proto::HeldMapOutput> outbox_delete_outputs;  // superseded map outputs it holds
  std::vector<proto::KillTask> outbox_kills;                // attempts it must end (AttemptKiller)
  sched::MapRateMeter map_rate;     // its accepted map attempts (worker clock)
  sched::MapRateMeter reduce_rate;  // its committed reduce attempts (the same meter)

  // An attempt that held a slot of this kind ended.
  void ReleaseSlot(bool reduce, bool unified) {
    int& n = unified ? running_unified : (reduce ? running_reduce : running_map);
    if (n > 0) n--;
  }
};

// Which slots a task needs: maps run in map or unified slots, reduces in reduce or unified.
enum class TaskKindFilter { kMap, kReduce };

// How long the master's heartbeat path takes, in real (monotonic) time, since the start
// (`/api/cluster` "timings"; `mr loadgen` diffs two readings, docs/master-load.md):
// every heartbeat's handling; every scheduling round (snapshot, policy, applying the
// decision); and, for a round that had free slots to fill, the round's time divided by
// those free slots: the decision latency per free slot.
struct HeartbeatTimings {
  LogHistogram heartbeat_us;
  LogHistogram round_us;
  LogHistogram round_per_free_slot_us;
};

struct TrackerOptions {
  uint32_t max_attempts = 4;      // failed attempts per task before the job fails
  double worker_timeout = 10;     // seconds without a heartbeat -> worker lost
  int blacklist_after = 3;        // failures of one job on one worker
  // Blacklisting for a job is in force only while its blacklisted workers are under this
  // share of the live ones (Hadoop's node-blacklisting ignore-threshold, 33%), and never
  // so that no live worker may run a task kind.
  int blacklist_max_percent = 33;
  double task_timeout = 600;      // seconds without progress before a worker kills an attempt
  size_t history_jobs = 1000;     // finished jobs kept (store, traces, status page)
  double history_max_age = 0;     // seconds after its end a finished job is dropped; 0 = never
  std::string placement = "pull"; // the --placement mode's name, for status (the stage is the scheduler's)
  // LATE's thresholds (mr master --speculative-*); a job opts out with --speculative off.
  sched::SpeculatorOptions speculation;
  // Where the master lists, splits and samples job inputs; not owned, outlives the tracker.
  // The local file system unless a test puts in another (as leveldb's Options::env).
  const jobs::InputSource* input_source = &jobs::LocalInputs();
  // The source of a job whose JobSpec names a data server (input_server, "HOST:PORT"); the
  // master's server sets it (shuffle::RemoteInputsCache). Unset: such a job is refused.
  std::function<Result<const jobs::InputSource*>(const std::string& server)> remote_inputs;
  // Where a job's output directory is claimed, committed to and removed (jobs/output_store.h);
  // not owned. The local file system (shared) unless a test puts in another.
  const jobs::OutputStore* output_store = &jobs::LocalOutputs();
  // The store of a job whose JobSpec names an output server ("HOST:PORT", the submitting
  // host's data server); the master's server sets it (shuffle::RemoteOutputsCache). Unset:
  // such a job is refused.
  std::function<Result<const jobs::OutputStore*>(const std::string& server)> remote_outputs;
  // Where work that reads a job's trace runs (master/job_seal.h): the server's worker
  // thread. Unset: inline, at once.
  Offload offload;
  // The thread that formats and writes job traces (master/trace_queue.h); the master's
  // server makes one. Unset: each flush writes inline, on the state thread.
  std::shared_ptr<TraceQueue> trace_queue;
};

struct TrackerState {
  TrackerState(const Clock* c, std::string p, std::string dir, TrackerOptions o)
      : clock(c), policy(std::move(p)), state_dir(std::move(dir)), options(o) {}

  double Now() const { return clock->Now(); }
  // nullptr if there is no such job (never was, or dropped by retention).
  JobRecord* FindJob(uint64_t id) {
    auto it = jobs.find(id);
    return it == jobs.end() ? nullptr : it->second.get();
  }
  WorkerRecord* FindWorker(WorkerId id) {
    auto it = workers.find(id);
    return it == workers.end() ? nullptr : &it->second;
  }

  const Clock* clock;
  const std::string policy;
  const std::string state_dir;
  const TrackerOptions options;
  uint64_t next_job_id = 1;
  WorkerId next_worker_id = 1;
  std::map<uint64_t, std::unique_ptr<JobRecord>> jobs;  // by id = arrival order
  std::map<WorkerId, WorkerRecord> workers;
  std::map<sched::JobId, double> shares;
  double map_recovery_deadline = 0;  // while > 0, some done maps await their worker
  uint64_t heartbeats = 0;           // handled since start (/api/cluster: the master's load)
  double last_round_time = 0;
  HeartbeatTimings timings;
  // Called with a job's id once it has ended (JobTracker::SetJobEndListener).
  std::function<void(uint64_t)> on_job_end;
};

}  // namespace mr::master
