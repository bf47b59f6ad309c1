// JobLifecycle: a job from submission to its end, and the task state transitions that are
// not a worker's report: a map's accepted output (CompleteMap) and its re-execution, a
// reduce's commit and reset, a lost worker's tasks, the job's end (succeeded, failed,
// killed) and the retention of finished jobs. Reports arrive through TaskReports.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "jobs/input_split.h"
#include "master/job.h"
#include "master/job_persistence.h"
#include "master/reduce_placement.h"
#include "master/tracker_state.h"
#include "master/worker_registry.h"
#include "mr.pb.h"

namespace mr::master {

// What admitting a job needs from its inputs and output directory, found by PlanJob. Its
// work (listing, splitting and sampling the inputs; checking and claiming the output
// directory) may wait on a data server, so the master does it off the state thread for such
// jobs (JobTracker::SubmitAsync); Admit, on the state thread, is cheap.
struct PlannedJob {
  proto::JobSpec spec;              // with the plan's extra params
  bool uses_input = false;
  std::vector<jobs::Split> splits;  // uses_input: one map each
  uint64_t input_bytes = 0;
  double planned_at = 0;            // the tracker's clock when planning began
};

class JobLifecycle {
 public:
  JobLifecycle(TrackerState& state, JobPersistence& persistence, WorkerRegistry& registry, ReducePlacer& placer)
      : state_(state), persistence_(persistence), registry_(registry), placer_(placer) {}

  // Validates and plans the job (splits, sampling: through TrackerOptions::input_source),
  // creates OUTPUT/_temporary.
  // Errors: NotFound (unknown job, missing input), AlreadyExists (output
  // exists), InvalidArgument (bad params). Nothing is created on error. A spec whose
  // submission_id a held job already carries is that job's submit sent again: its id, nothing new.
  Result<uint64_t> Submit(const proto::JobSpec& spec);
  // Submit's first half, touching no tracker state (only `options`, which do not change):
  // validates the spec, plans the job through its input source, checks the output directory
  // through its store (AlreadyExists if taken) and claims it (OUTPUT/_temporary).
  // Thread-safe. `planned_at` is copied into the result.
  static Result<PlannedJob> PlanJob(const TrackerOptions& options, const proto::JobSpec& spec, double planned_at);
  // Submit's second half, on the state thread: AlreadyExists if an unfinished job of this
  // tracker names the same output directory; else the job gets its id, record, trace and
  // reducers' placement.
  Result<uint64_t> Admit(PlannedJob plan);
  // The job a held spec with spec's submission_id made (a submit sent again after its
  // connection broke); nullopt if none, or spec carries no submission_id.
  std::optional<uint64_t> FindSubmission(const proto::JobSpec& spec) const;
  // Ends a running job as KILLED (kKilledByUser). Errors: NotFound, FailedPrecondition
  // (already ended).
  Status Kill(uint64_t job_id);
  // Ends job: slots released, workers told, trace flushed, output removed (not kSucceeded),
  // then the seal (job_seal.h) through TrackerOptions::offload. No-op on a finished job.
  void FinishJob(JobRecord& job, JobState state, const std::string& error);
  // The seal's result, on the state thread: the job stored (and its name's profiles), then
  // state.on_job_end. Ignored for a job no longer sealing.
  void Sealed(const SealResult& r);

  // A map's successful attempt is accepted: its output, sizes and counters join the job's.
  void CompleteMap(JobRecord& job, MapTask& m, const proto::MapDone& done,
                   const google::protobuf::RepeatedPtrField<proto::Counter>& counters);
  // A done map's output is lost or bad: it becomes pending, its attempt's output deleted.
  void ReexecuteMap(JobRecord& job, int index, const std::string& why);
  // A map-only job's map attempt succeeded: renames its part file into place (and traces
  // the commit). False, with the job failed, if the rename fails.
  bool CommitMap(JobRecord& job, int index, uint32_t attempt);
  // Renames the attempt's output into place and records it; the last commit ends the job.
  void CommitReduce(JobRecord& job, int index, const proto::TaskReport& r);
  // A reducer back to unplaced (its fetched bytes no longer count).
  void ResetReduce(JobRecord& job, int index);
  // A lost worker's attempts of reduce `index` (LoseWorker).
  void LoseReduceAttempts(JobRecord& job, int index, WorkerId id);
  // A worker is gone: its running attempts end as lost, its reducers are placed again and
  // its done maps re-run while a reducer still needs them.
  void LoseWorker(WorkerId id, const std::string& why);
  // Drops finished jobs beyond TrackerOptions::history_jobs / history_max_age.
  void EnforceRetention();

 private:
  TrackerState& state_;
  JobPersistence& persistence_;
  WorkerRegistry& registry_;
  ReducePlacer& placer_;
};

}  // namespace mr::master
