// What the task-level simulator accepts (internal): the checks SimulateTasks runs
// on its jobs and cluster before it starts. The cluster-shape helpers declared in
// task_sim.h (ResolveWorkers, MapCapacity, ShuffleCapacity) live beside them.
#pragma once

#include <span>

#include "common/status.h"
#include "model/tasksim/task_sim.h"

namespace mr::model::tasksim {

// InvalidArgument naming the first bad field: a worker without slots, a speed or cap
// that is not a finite number > 0, no map-capable or no reduce-capable slot in the
// cluster, failure knobs out of range, or a job with a bad size, law, duration list
// or parameter.
Status ValidateTaskSimInput(std::span<const TaskJob> jobs, const ClusterSpec& cluster);

// The policy's admission of every job (Scheduler::AdmitJob: a capacity queue it knows), and
// somewhere each may run (Scheduler::MayRunOn: a worker with a map-capable and one with a
// reduce-capable slot), else the job would never finish. InvalidArgument naming the job.
Status AdmitTaskSimJobs(std::span<const TaskJob> jobs, const ClusterSpec& cluster,
                        const sched::Scheduler& policy);

}  // namespace mr::model::tasksim
