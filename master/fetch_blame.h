// FetchBlame: blame and bounds for failed fetches (docs/reliability.md, "Blame and
// bounds"). A failed fetch is charged to whom it proves at fault: the fetching reducer's
// own disk fails the reduce attempt (which moves), a proven-bad source copy re-executes
// the map at once, an unproven one only when corroborated or repeated. Every loop this
// can start is bounded by max_attempts.
#pragma once

#include <string>

#include "master/job.h"
#include "master/job_lifecycle.h"
#include "master/reduce_placement.h"
#include "master/tracker_state.h"
#include "master/worker_registry.h"
#include "mr.pb.h"

namespace mr::master {

class FetchBlame {
 public:
  FetchBlame(TrackerState& state, JobLifecycle& lifecycle, WorkerRegistry& registry, ReducePlacer& placer)
      : state_(state), lifecycle_(lifecycle), registry_(registry), placer_(placer) {}

  // A failed fetch reported by w's reducer of job.
  void BlameFetchFailure(WorkerRecord& w, JobRecord& job, const proto::FetchEvent& f);
  // A fetching reducer failed on its own worker (disk, directory): counted, moved.
  void FailFetchingReduce(WorkerRecord& w, JobRecord& job, const proto::TaskReport& r);

 private:
  // The map's output could not be served: re-executed, or past max_attempts the job fails.
  void ReexecuteUnserved(JobRecord& job, int index, const std::string& error);

  TrackerState& state_;
  JobLifecycle& lifecycle_;
  WorkerRegistry& registry_;
  ReducePlacer& placer_;
};

}  // namespace mr::master
