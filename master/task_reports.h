// TaskReports: what a worker's heartbeat says about its tasks, applied to the jobs: attempt
// ends (succeeded, failed, killed), running attempts' progress, a reducer's fetch progress,
// fetch events (traced, and failures blamed) and the bytes its shuffle server sent. Only an
// attempt that counts is ever accepted; a superseded attempt's output is deleted. A map
// with a backup has two that count: the first to succeed wins and the other is killed; a
// failed one is counted and the task runs on in the other.
#pragma once

#include "master/attempt_kills.h"
#include "master/fetch_blame.h"
#include "master/job.h"
#include "master/job_lifecycle.h"
#include "master/job_persistence.h"
#include "master/reduce_placement.h"
#include "master/tracker_state.h"
#include "master/worker_registry.h"
#include "mr.pb.h"
#include "trace/event.h"

namespace mr::master {

class TaskReports {
 public:
  TaskReports(TrackerState& state, JobLifecycle& lifecycle, JobPersistence& persistence, WorkerRegistry& registry,
              ReducePlacer& placer, FetchBlame& blame, AttemptKiller& killer)
      : state_(state), lifecycle_(lifecycle), persistence_(persistence), registry_(registry), placer_(placer),
        blame_(blame), killer_(killer) {}

  // Everything hb reports, in order: task reports, fetches, served bytes.
  void Apply(WorkerRecord& w, const proto::Heartbeat& hb);

 private:
  void HandleReport(WorkerRecord& w, const proto::TaskReport& r);
  void HandleMapReport(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r);
  void HandleReduceReport(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r);
  void HandleReduceEnd(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r);
  void HandleReduceBackupReport(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r);
  void RemoveSupersededReduce(const JobRecord& job, const proto::TaskReport& r);
  // A running reduce whose input must be fetched again (KILLED report): back to fetching.
  void ReturnReduceToFetching(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r);
  void HandleFetch(WorkerRecord& w, const proto::FetchEvent& f);
  // A FAILED attempt report: traced (status "failed", its error and stderr tail) and kept
  // as the job's latest failed attempt.
  void RecordFailure(const WorkerRecord& w, JobRecord& job, const proto::TaskReport& r, trace::AttemptEnd ev);
  // A SUCCEEDED map report the tracker did not accept: its output is deleted unless it
  // is the attempt that counts.
  void DeleteIfSuperseded(WorkerRecord& w, const JobRecord& job, const proto::TaskReport& r);

  TrackerState& state_;
  JobLifecycle& lifecycle_;
  JobPersistence& persistence_;
  WorkerRegistry& registry_;
  ReducePlacer& placer_;
  FetchBlame& blame_;
  AttemptKiller& killer_;
};

}  // namespace mr::master
