// JobTracker: the master's state machine, as one facade over its parts. Accepts jobs,
// registers workers, turns each heartbeat into a scheduling round through the Scheduler
// seam, and ends jobs; the parts hold the rules (docs/architecture.md lists them):
// JobLifecycle (submit, commit, finish, kill, lost workers), TaskReports (what heartbeats
// report) with FetchBlame, ReducePlacer, WorkerRegistry (blacklist), SnapshotBuilder,
// DecisionApplier, MapQueues and AttemptKiller (the round and what a policy may decide),
// JobPersistence and Recovery (the StateStore and a restart), StatusView (status and
// /api), UnifiedSlotsGuard (a unified-slots policy on a cluster without them), all over
// one TrackerState. After the policy's decision, the Speculator (LATE) may back up a slow
// running map on the slots the policy left free.
// Not thread-safe: the master calls it from its single state thread only.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/clock.h"
#include "common/status.h"
#include "master/attempt_kills.h"
#include "master/decision_applier.h"
#include "master/fetch_blame.h"
#include "master/job.h"
#include "master/job_lifecycle.h"
#include "master/job_persistence.h"
#include "master/map_queues.h"
#include "master/message_checks.h"
#include "master/recovery.h"
#include "master/reduce_placement.h"
#include "master/snapshot_builder.h"
#include "master/state_store.h"
#include "master/status_view.h"
#include "master/task_assignment.h"
#include "master/task_reports.h"
#include "master/tracker_state.h"
#include "master/unified_slots_guard.h"
#include "master/worker_registry.h"
#include "mr.pb.h"
#include "scheduler/scheduler.h"
#include "scheduler/stages/speculator.h"

namespace mr::master {

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
  // exists), InvalidArgument (bad params). Nothing is created on error. A spec whose
  // submission_id a held job already carries is that job's submit sent again: its id, nothing new.
  Result<uint64_t> Submit(const proto::JobSpec& spec);
  // Submit, for a connection: a job whose inputs or output directory sit behind a data
  // server is planned (inputs listed, split and sampled; output checked and claimed) off the
  // state thread through TrackerOptions::offload, and admitted back on it, so a slow data
  // server delays only its own submit, not every heartbeat (JobLifecycle::PlanJob/Admit).
  // Other jobs, or with no offload, are submitted at once. `answer` runs on the state thread.
  void SubmitAsync(const proto::JobSpec& spec, std::function<void(Result<uint64_t>)> answer);
  Result<proto::RegisterReply> Register(const proto::RegisterWorker& req);
  // One scheduling round for the reporting worker (every worker's free slots when the
  // policy's scope() is kCluster). The reply carries, in order of age, jobs finished, outputs
  // to delete, queued placements and locations, then the round's assignments and kills.
  // Its time, and its round's, go to the heartbeat timings (tracker_state.h).
  Result<proto::HeartbeatReply> Heartbeat(const proto::Heartbeat& hb);
  Result<proto::StatusReply> GetStatus(uint64_t job_id) const;
  // The job's map and reduce counts, or nullopt if the master holds no such job (the
  // message checks' JobShapeLookup: one per job a heartbeat reports on, so O(1)).
  std::optional<JobShape> ShapeOf(uint64_t job_id) const;
  // One job's status without the worker rows (StatusView::GetJobStatus).
  Result<proto::StatusReply> GetJobStatus(uint64_t job_id) const;
  // Ends a running job as KILLED (kKilledByUser): stored, traced, its output directory
  // removed, and every worker told to drop the job (which cancels its running attempts).
  // Returns the job's status after the kill. Errors: NotFound (no such job),
  // FailedPrecondition (the job has already ended; the message names its state).
  Result<proto::JobStatus> Kill(uint64_t job_id);
  // JSON for the status page's /api paths (docs/web.md); NotFound otherwise.
  Result<std::string> ApiGet(std::string_view path) const;
  // For /api/jobs/ID/trace, the trace file to read off the state thread (TraceFileJson).
  std::optional<Result<std::string>> ApiTracePath(std::string_view path) const { return status_.ApiTracePath(path); }
  // `mr logs`: where the job's attempts (or one task's) ran (master/task_attempts.h). The
  // trace is parsed through TrackerOptions::offload; `answer` runs on the state thread
  // (at once, for a refused request or with no offload).
  void TaskAttempts(uint64_t job_id, const std::string& task,
                    std::function<void(Result<proto::TaskAttemptsReply>)> answer);
  // Periodic housekeeping: declares silent workers lost, fails the jobs of a policy that
  // needs unified slots when no live worker has had one for the grace (UnifiedSlotsGuard).
  // A worker silent past the timeout whose next message has arrived but is not handled yet
  // (heard(id): the master is behind, not the worker) is not lost.
  void Tick(const std::function<bool(WorkerId)>& heard = nullptr);
  // Called with the job's id once it has ended (output committed or removed, store
  // written): from inside the call that ended it or that handed back its seal
  // (job_seal.h); a listener must not re-enter the tracker synchronously (the server posts
  // to its state thread).
  void SetJobEndListener(std::function<void(uint64_t job_id)> listener) { state_.on_job_end = std::move(listener); }

  // The snapshot a round for worker w would see now, built from nothing: what the kept one
  // (SnapshotBuilder::Build) must equal. For tests.
  sched::Snapshot FreshSnapshot(WorkerId w, bool every_worker_free) const {
    return snapshots_.BuildFresh(w, every_worker_free);
  }

  const std::string& policy() const { return state_.policy; }
  size_t worker_count() const { return state_.workers.size(); }
  double worker_timeout() const { return state_.options.worker_timeout; }

 private:
  static constexpr double kShareRefreshSeconds = 0.1;

  // Heartbeat's work, timed by it.
  proto::HeartbeatReply HeartbeatRound(const proto::Heartbeat& hb);

  // Whether a round could assign something: w has a free slot with work (any worker, cluster).
  bool HasAssignableWork(const WorkerRecord& w, bool cluster) const;
  // Whether the speculator could back up a map on w: w has a free map-capable slot, no
  // unfinished job has a map that is neither running nor done (one queued at another worker
  // counts too: conservative), and a job that allows speculation has a running map. Keeps
  // heartbeats without a candidate cheap.
  void StartReadyReduceBackups(WorkerRecord& w);
  bool MaySpeculate(const WorkerRecord& w) const;
  // The speculator's round on the slots w has free after the policy's: backups into reply.
  void Speculate(WorkerRecord& w, proto::HeartbeatReply* reply);

  std::unique_ptr<sched::Scheduler> scheduler_;
  TrackerState state_;
  // The parts, in dependency order (each refers only to those above it).
  JobPersistence persistence_;
  WorkerRegistry registry_;
  ReducePlacer placer_;
  JobLifecycle lifecycle_;
  FetchBlame blame_;
  AttemptKiller killer_;
  TaskReports reports_;
  Recovery recovery_;
  SnapshotBuilder snapshots_;
  MapQueues queues_;
  DecisionApplier decisions_;
  StatusView status_;
  UnifiedSlotsGuard unified_;
  sched::Speculator speculator_;
};

}  // namespace mr::master
