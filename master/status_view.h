// StatusView: the tracker's state rendered for readers: a job's JobStatus (mr status, wait,
// kill replies), the StatusReply, and the JSON of the status page's /api paths (docs/web.md).
// Read-only.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "master/tracker_state.h"
#include "mr.pb.h"
#include "scheduler/scheduler.h"

namespace mr::master {

class StatusView {
 public:
  explicit StatusView(const TrackerState& state) : state_(state) {}

  // The policy's queues now (sched::Scheduler::Queues), shown in /api/cluster's "queues";
  // unset (or returning none): an empty list.
  using QueueSource = std::function<std::vector<sched::QueueUse>()>;
  void SetQueueSource(QueueSource source) { queues_ = std::move(source); }

  proto::JobStatus MakeStatus(const JobRecord& job) const;
  // One job (job_id != 0; NotFound if unknown) or every job kept.
  Result<proto::StatusReply> GetStatus(uint64_t job_id) const;
  // The same for one job without the worker rows: what a WaitJobRequest is answered with,
  // in time independent of the cluster's size (each `mr run` polls it).
  Result<proto::StatusReply> GetJobStatus(uint64_t job_id) const;
  // JSON for /api/cluster, /api/workers, /api/jobs, /api/jobs/ID; NotFound otherwise. The
  // trace (/api/jobs/ID/trace) is not read here: ApiTracePath, then TraceFileJson.
  Result<std::string> ApiGet(std::string_view path) const;
  // For /api/jobs/ID/trace, the job's trace file; nullopt for any other path. NotFound for
  // an unknown job.
  std::optional<Result<std::string>> ApiTracePath(std::string_view path) const;

 private:
  // The worker's name (WorkerName: its name label, else its host); "" for an unknown id.
  std::string WorkerNameOf(WorkerId id) const;
  // Bytes/s all shuffle servers sent over the last 2 s: the jobs' measured recent rates.
  double ClusterShuffleRate() const;
  std::string ClusterJson() const;
  std::string WorkersJson() const;
  // Maps waiting in each worker's queue (--placement), over the unfinished jobs.
  std::map<WorkerId, int> QueuedMaps() const;

  const TrackerState& state_;
  QueueSource queues_;
};

// /api/jobs/ID/trace's JSON: the trace file's events as one array (a line not yet whole is
// left out). Reads the file: any thread but the state thread's.
std::string TraceFileJson(const std::string& trace_path);

}  // namespace mr::master
