// Recovery: a restarted master resumes from its StateStore. Finished jobs come back for
// history; unfinished ones resume with their committed reduces kept and their done maps
// awaiting the worker that served them: a worker registering again offers its held outputs
// and the awaited ones are adopted, the rest are deleted; done maps not offered within
// worker_timeout of the restart run again.
#pragma once

#include "common/status.h"
#include "master/job_lifecycle.h"
#include "master/job_persistence.h"
#include "master/reduce_placement.h"
#include "master/tracker_state.h"
#include "mr.pb.h"

namespace mr::master {

class Recovery {
 public:
  Recovery(TrackerState& state, JobPersistence& persistence, JobLifecycle& lifecycle, ReducePlacer& placer)
      : state_(state), persistence_(persistence), lifecycle_(lifecycle), placer_(placer) {}

  // Loads jobs from the store (nothing without one). Errors: the store's.
  Status Recover();
  // Worker `id` registered with req: adopts the held outputs a running job awaits, and
  // tells it in reply which to delete and which jobs to drop.
  void AdoptHeldOutputs(WorkerId id, const proto::RegisterWorker& req, proto::RegisterReply* reply);
  // Once the deadline set by Recover passes, maps still awaiting their worker run again.
  void ExpireMapRecovery();

 private:
  void AdoptHeldOutput(WorkerId id, JobRecord& job, const proto::HeldMapOutput& h);

  TrackerState& state_;
  JobPersistence& persistence_;
  JobLifecycle& lifecycle_;
  ReducePlacer& placer_;
};

}  // namespace mr::master
