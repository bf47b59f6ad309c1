// JobTracker: the master's state machine. Accepts jobs, registers workers,
// turns each heartbeat into a scheduling round through the Scheduler seam,
// places reducers at slow-start, routes map-output locations to the workers
// fetching them, commits one attempt per task and writes the traces.
// Not thread-safe: the master calls it from its single state thread only.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "master/job.h"
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
  std::vector<proto::Assignment> outbox_assignments;   // reduce placements
  std::vector<proto::MapOutputLocation> outbox_locations;
  std::vector<uint64_t> outbox_finished;
};

class JobTracker {
 public:
  JobTracker(const Clock* clock, std::unique_ptr<sched::Scheduler> scheduler, std::string policy,
             std::string state_dir);

  // Validates and plans the job (splits, sampling), creates OUTPUT/_temporary.
  // Errors: NotFound (unknown job, missing input), AlreadyExists (output
  // exists), InvalidArgument (bad params). Nothing is created on error.
  Result<uint64_t> Submit(const proto::JobSpec& spec);
  proto::RegisterReply Register(const proto::RegisterWorker& req);
  // One scheduling round for the reporting worker.
  Result<proto::HeartbeatReply> Heartbeat(const proto::Heartbeat& hb);
  Result<proto::StatusReply> GetStatus(uint64_t job_id) const;

  const std::string& policy() const { return policy_; }

 private:
  JobRecord* FindJob(uint64_t id);
  void HandleReport(WorkerRecord& w, const proto::TaskReport& r);
  void HandleMapReport(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r);
  void HandleReduceReport(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r);
  void HandleFetch(const proto::FetchEvent& f);
  void MaybePlaceReduces(JobRecord& job);
  void QueueLocations(JobRecord& job);
  void CommitReduce(JobRecord& job, int index, const proto::TaskReport& r);
  void FinishJob(JobRecord& job, JobState state, const std::string& error);
  void FailTaskAttempt(JobRecord& job, const std::string& task, const std::string& error);
  sched::Snapshot BuildSnapshot(WorkerId only_free) const;
  void ApplyDecision(WorkerRecord& w, const sched::Decision& d, proto::HeartbeatReply* reply);
  proto::Assignment MakeMapAssignment(JobRecord& job, int index, bool unified);
  void ReleaseSlot(WorkerRecord& w, bool reduce, bool unified);
  void UpdateShares(const sched::Decision& d);
  void Trace(JobRecord& job, nlohmann::json event);
  void FlushTraces();
  proto::JobStatus MakeStatus(const JobRecord& job) const;

  const Clock* clock_;
  std::unique_ptr<sched::Scheduler> scheduler_;
  std::string policy_;
  std::string state_dir_;
  uint64_t next_job_id_ = 1;
  WorkerId next_worker_id_ = 1;
  std::map<uint64_t, std::unique_ptr<JobRecord>> jobs_;  // by id = arrival order
  std::map<WorkerId, WorkerRecord> workers_;
  std::map<sched::JobId, double> shares_;
  uint32_t max_attempts_ = 4;
};

}  // namespace mr::master
