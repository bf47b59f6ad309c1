// WorkerRegistry: the registered workers as the tracker's rules see them: registration
// checks, per-job failure counts and blacklisting, and the superseded map outputs a worker
// is told to delete. The workers themselves live in TrackerState::workers.
#pragma once

#include "common/status.h"
#include "master/job.h"
#include "master/tracker_state.h"
#include "mr.pb.h"

namespace mr::master {

class WorkerRegistry {
 public:
  explicit WorkerRegistry(TrackerState& state) : state_(state) {}

  // Errors: InvalidArgument naming what the registration gets wrong (slots, port, speed,
  // labels...).
  static Status Validate(const proto::RegisterWorker& r);
  // The registration's labels, checked (count first, then each label before it is copied,
  // then repeated keys: common/worker_labels.h). Errors: InvalidArgument naming the first
  // problem.
  static Result<WorkerLabels> LabelsOf(const proto::RegisterWorker& r);
  // Adds a worker with the next id, heard from now. REQUIRES: Validate(req) is Ok.
  WorkerRecord& Add(const proto::RegisterWorker& req);

  // Whether w may not run job's tasks of this kind: it failed the job blacklist_after times,
  // the job's blacklist is within blacklist_max_percent of the live workers, and another
  // live worker not blacklisted could run the kind. So a task kind always has a worker.
  bool Blacklisted(const JobRecord& job, WorkerId w, TaskKindFilter kind) const;
  // w is live and failed job blacklist_after times or more.
  bool FailedTooOften(const JobRecord& job, WorkerId w) const;
  // Whether a live worker other than `except`, not blacklisted, has slots for kind.
  bool OtherWorkerCanRun(const JobRecord& job, WorkerId except, TaskKindFilter kind) const;
  // One more failure of job on w; traces the blacklisting when it reaches blacklist_after.
  void CountFailure(JobRecord& job, WorkerId w);
  // Tells worker `w` (if registered) to delete its output of (job, map, attempt).
  void DeleteOutput(WorkerId w, uint64_t job, uint32_t map, uint32_t attempt);

 private:
  TrackerState& state_;
};

}  // namespace mr::master
