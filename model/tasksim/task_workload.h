// Workloads for the task-level simulator (task_sim.h): fluid sizes (the CSV of
// `mr model tandem`) mapped onto map and reduce tasks of a given cluster, the
// real-cluster experiment's job list (bench/policies/workload.py JSON) read as
// the same synthetic jobs the driver submits, and the way back to fluid sizes
// so both simulators can be run on one workload. Pure functions.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "model/fluid/tandem_sim.h"
#include "model/tasksim/task_sim.h"

namespace mr::model {

struct TaskShape {
  int maps_per_job = 0;  // 0 = one map per map-capable slot of the cluster (fluid CSV only)
  int reducers = 1;      // per job (fluid CSV only; the JSON carries its own)
  double reduce_seconds = 0;
  bool hints = true;  // give the policy the job's true totals as hints
};

// Fluid sizes are seconds at full capacity: a job's maps take x × MapCapacity
// (map and unified slots times speeds) slot-seconds in total and emit
// y × ShuffleCapacity bytes, split evenly over its maps, so a job alone on equal
// workers whose map count is a multiple of the slot count maps in exactly x.
std::vector<TaskJob> TasksFromFluid(std::span<const TandemJob> jobs, const ClusterSpec& cluster,
                                    const TaskShape& shape);
// The inverse: x = slot-seconds / MapCapacity, y = bytes / ShuffleCapacity.
TandemJob FluidSizes(const TaskJob& job, const ClusterSpec& cluster);

// workload.py's JSON: for each entry of "job_list", arrival, maps, reducers,
// map_bytes and the hints; a map takes hint_map_seconds / maps slot-seconds (the
// wall slot-time the generator designs for). Optional per entry: "map_durations"
// and "reduce_durations" (a recorded run's per-task seconds, replayed), "map_time"
// (ParseMapTimeDist syntax), and the per-job parameters by their keys
// (scheduler/job_params.h: "pool", "weight", "speculative", "hint_reduce_seconds" (with
// hints; default: the shape's reduce seconds x reducers, the true total), flex's "metric",
// "deadline" (seconds after arrival), "sla", "min_slots", "max_slots"). InvalidArgument
// naming the job for a missing or bad field, for a contradictory combination
// (JobParams::Validate) or for "deadline_seconds" (the key is "deadline").
Result<std::vector<TaskJob>> ParseBenchWorkloadJson(std::string_view text, const TaskShape& shape);

// A file that starts with '{' is workload.py JSON, anything else the fluid CSV.
// NotFound for a missing file; InvalidArgument (prefixed with the path) for a
// malformed one, or for maps_per_job given with a JSON file (it fixes its own).
Result<std::vector<TaskJob>> LoadTaskWorkload(const std::string& path, const ClusterSpec& cluster,
                                              const TaskShape& shape);

}  // namespace mr::model
