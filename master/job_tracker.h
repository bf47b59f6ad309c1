// JobTracker: the master's state machine. Accepts jobs, registers workers,
// turns each heartbeat into a scheduling round through the Scheduler seam,
// places reducers at slow-start, routes map-output locations to the workers
// fetching them, commits one attempt per task, writes the traces, and recovers:
// lost workers' tasks and still-needed map outputs are re-executed, failed
// attempts retried, and a restarted master resumes from the StateStore.
// Not thread-safe: the master calls it from its single state thread only.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "master/job.h"
#include "master/message_checks.h"
#include "master/state_store.h"
#include "mr.pb.h"
#include "scheduler/scheduler.h"

namespace mr::master {

struct WorkerRecord {
  WorkerId id = 0;
  proto::RegisterWorker info;
  int running_map = 0;
  int running_reduce = 0;
  int running_unified = 0;
  double last_heartbeat = 0;
  double shuffle_bytes_sent = 0;
  std::vector<proto::Assignment> outbox_assignments;   // reduce placements
  std::vector<proto::MapOutputLocation> outbox_locations;
  std::vector<uint64_t> outbox_finished;
  std::vector<proto::HeldMapOutput> outbox_delete_outputs;  // superseded map outputs it holds
};

// Which slots a task needs: maps run in map or unified slots, reduces in reduce or unified.
enum class TaskKindFilter { kMap, kReduce };

// What one heartbeat reply may carry (docs/protocol.md, "Message size"): the master sends
// no frame larger than it reads (kMaxControlFrameBytes), far below a worker's read limit,
// so a big job spec can never break a worker's connection. Assignments and locations share
// kMaxReplyBytes; the rest (shares, finished jobs, envelope) fits in the margin. An
// assignment is mostly its job spec; one larger than kMaxAssignmentBytes cannot be sent.
inline constexpr size_t kMaxReplyBytes = kMaxControlFrameBytes - (64u << 10);
inline constexpr size_t kMaxAssignmentBytes = kMaxReplyBytes - (64u << 10);
inline constexpr size_t kAssignmentOverheadBytes = 16;  // tag, length and attempt-number slack

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
};

class JobTracker {
 public:
  // store may be null (no persistence: tests).
  JobTracker(const Clock* clock, std::unique_ptr<sched::Scheduler> scheduler, std::string policy,
             std::string state_dir, std::unique_ptr<StateStore> store, TrackerOptions options = {});

  // Loads jobs from the store: finished ones for history, unfinished ones
  // resume (maps re-run, committed reduces kept).
  Status Recover();
  // Validates and plans the job (splits, sampling), creates OUTPUT/_temporary.
  // Errors: NotFound (unknown job, missing input), AlreadyExists (output
  // exists), InvalidArgument (bad params). Nothing is created on error.
  Result<uint64_t> Submit(const proto::JobSpec& spec);
  Result<proto::RegisterReply> Register(const proto::RegisterWorker& req);
  // One scheduling round for the reporting worker.
  Result<proto::HeartbeatReply> Heartbeat(const proto::Heartbeat& hb);
  Result<proto::StatusReply> GetStatus(uint64_t job_id) const;
  // Ends a running job as KILLED (kKilledByUser): stored, traced, its output directory
  // removed, and every worker told to drop the job (which cancels its running attempts).
  // Returns the job's status after the kill. Errors: NotFound (no such job),
  // FailedPrecondition (the job has already ended; the message names its state).
  Result<proto::JobStatus> Kill(uint64_t job_id);
  // JSON for the status page's /api paths (docs/web.md); NotFound otherwise.
  Result<std::string> ApiGet(std::string_view path) const;
  // Periodic housekeeping: declares silent workers lost.
  void Tick();
  // Called with the job's id once it has ended (output committed or removed, store
  // written), from inside the call that ended it: a listener must not re-enter the tracker
  // synchronously (the server posts to its state thread).
  void SetJobEndListener(std::function<void(uint64_t job_id)> listener) { on_job_end_ = std::move(listener); }

  const std::string& policy() const { return policy_; }
  size_t worker_count() const { return workers_.size(); }

 private:
  JobRecord* FindJob(uint64_t id);
  bool HasAssignableWork(const WorkerRecord& w) const;
  // Reports.
  void HandleReport(WorkerRecord& w, const proto::TaskReport& r);
  void HandleMapReport(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r);
  void HandleReduceReport(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r);
  void HandleReduceEnd(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r);
  // A running reduce whose input must be fetched again (KILLED report): back to fetching.
  void ReturnReduceToFetching(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r);
  void HandleFetch(WorkerRecord& w, const proto::FetchEvent& f);
  void CommitReduce(JobRecord& job, int index, const proto::TaskReport& r);
  void FinishJob(JobRecord& job, JobState state, const std::string& error);
  void CountFailure(JobRecord& job, WorkerId w);
  void TraceEstimate(JobRecord& job);
  void UpdateProfile(const JobRecord& job);
  // Reducers and map outputs.
  // Among the least loaded hosts, `prefer` (if it is one) gets the reducer.
  void PlaceReduces(JobRecord& job, WorkerId prefer = 0);
  void QueueLocations(JobRecord& job);
  // Faults (job_tracker_faults.cc).
  void LoseWorker(WorkerId id, const std::string& why);
  void ReexecuteMap(JobRecord& job, int index, const std::string& why);
  void ResetReduce(JobRecord& job, int index);
  // Blame (job_tracker_blame.cc): a failed fetch is charged to whom it proves at fault.
  void BlameFetchFailure(WorkerRecord& w, JobRecord& job, const proto::FetchEvent& f);
  // The map's output could not be served: re-executed, or past max_attempts the job fails.
  void ReexecuteUnserved(JobRecord& job, int index, const std::string& error);
  // A fetching reducer failed on its own worker (disk, directory): counted, moved.
  void FailFetchingReduce(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r);
  // Tells worker `w` (if registered) to delete its output of (job, map, attempt).
  void DeleteOutput(WorkerId w, uint64_t job, uint32_t map, uint32_t attempt);
  // A SUCCEEDED map report the tracker did not accept: its output is deleted unless it
  // is the attempt that counts.
  void DeleteIfSuperseded(WorkerRecord& w, const JobRecord& job, const proto::TaskReport& r);
  void EnforceRetention();
  // Master restart: done maps wait for their worker to offer the output again.
  void AdoptHeldOutputs(WorkerId id, const proto::RegisterWorker& req, proto::RegisterReply* reply);
  void AdoptHeldOutput(WorkerId id, JobRecord& job, const proto::HeldMapOutput& h);
  void ExpireMapRecovery();
  // Scheduling (job_tracker_schedule.cc).
  sched::Snapshot BuildSnapshot(WorkerId only_free) const;
  void ApplyDecision(WorkerRecord& w, const sched::Decision& d, proto::HeartbeatReply* reply);
  proto::Assignment MakeMapAssignment(JobRecord& job, int index, bool unified);
  proto::Assignment MakeReduceAssignment(JobRecord& job, int index, bool place_only);
  void ReleaseSlot(WorkerRecord& w, bool reduce, bool unified);
  // A map whose assignment is too large for any message: the attempt fails, counted, with
  // the reason (its job fails at max_attempts), instead of breaking the worker's connection.
  void FailUnsendableMap(WorkerRecord& w, JobRecord& job, int index, size_t bytes);
  // Bytes still free in a heartbeat reply under kMaxReplyBytes.
  static size_t ReplyBudget(const proto::HeartbeatReply& reply);
  // Moves w's queued reduce placements and map-output locations into reply as far as the
  // budget allows (the rest wait for the next heartbeat); a placement no message could
  // carry fails its job.
  void SendOutbox(WorkerRecord& w, proto::HeartbeatReply* reply);
  void UpdateShares(const sched::Decision& d);
  // Whether w may not run job's tasks of this kind: it failed the job blacklist_after times,
  // the job's blacklist is within blacklist_max_percent of the live workers, and another
  // live worker not blacklisted could run the kind. So a task kind always has a worker.
  bool Blacklisted(const JobRecord& job, WorkerId w, TaskKindFilter kind) const;
  // w is live and failed job blacklist_after times or more.
  bool FailedTooOften(const JobRecord& job, WorkerId w) const;
  // Whether a live worker other than `except`, not blacklisted, has slots for kind.
  bool OtherWorkerCanRun(const JobRecord& job, WorkerId except, TaskKindFilter kind) const;
  // Persistence.
  void PersistJob(const JobRecord& job, bool sync);
  void PersistTask(const JobRecord& job, bool reduce, int index, bool committed, bool sync,
                   const google::protobuf::RepeatedPtrField<proto::Counter>* counters = nullptr);
  void PersistMapDone(const JobRecord& job, int index, const proto::MapDone& done);
  Status PersistIdCounters(bool sync);
  // A map's successful attempt is accepted: its output, sizes and counters join the job's.
  void CompleteMap(JobRecord& job, MapTask& m, const proto::MapDone& done,
                   const google::protobuf::RepeatedPtrField<proto::Counter>& counters);
  // Trace and status.
  void Trace(JobRecord& job, nlohmann::json event);
  void FlushTraces();
  proto::JobStatus MakeStatus(const JobRecord& job) const;

  const Clock* clock_;
  std::unique_ptr<sched::Scheduler> scheduler_;
  std::string policy_;
  std::string state_dir_;
  std::unique_ptr<StateStore> store_;
  TrackerOptions options_;
  uint64_t next_job_id_ = 1;
  WorkerId next_worker_id_ = 1;
  double map_recovery_deadline_ = 0;  // while > 0, some done maps await their worker
  std::map<uint64_t, std::unique_ptr<JobRecord>> jobs_;  // by id = arrival order
  std::map<WorkerId, WorkerRecord> workers_;
  std::map<sched::JobId, double> shares_;
  double last_round_time_ = 0;
  std::function<void(uint64_t)> on_job_end_;
  uint64_t heartbeats_ = 0;  // handled since start (/api/cluster: the master's load)
  static constexpr double kShareRefreshSeconds = 0.1;
};

}  // namespace mr::master
