// The workload sources behind the workload table (workload_params.h), one file each, and
// the rules they share for turning a job's totals (map slot-seconds, shuffle bytes) into
// tasks. Internal to mr::experiment; tests use the text-level entry points. Pure, thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "experiment/experiment.h"
#include "experiment/workload_import.h"
#include "scheduler/policy_options.h"

namespace mr::experiment {

// How a job's totals become tasks (docs/experiments.md, "Workloads", "From totals to tasks").
struct TaskRules {
  double task_seconds = 1;  // target slot-seconds of one map
  double max_map_bytes = 20e6;
  int max_maps = 400;
  int reducers = 1;           // per job
  double reduce_seconds = 0;  // per reduce task
};
// The rules from a source's parameters (task_seconds, max_map_bytes, max_maps, reducers,
// reduce_seconds); reducers 0 = the cluster's reduce slots.
TaskRules ReadTaskRules(const sched::PolicyOptions& params, const ClusterShape& cluster);

// maps = ceil(max(map_work / task_seconds, shuffle_bytes / max_map_bytes)) clipped to
// [1, max_maps] (*maps_clipped set when the upper clip applied; may be null); each map
// takes map_work / maps slot-seconds and emits shuffle_bytes / maps bytes. The hints are
// the true totals (map work, shuffle bytes, reducers x reduce seconds).
model::TaskJob JobFromTotals(double arrival, double map_work, double shuffle_bytes,
                             const TaskRules& rules, bool* maps_clipped);

// Sum of (map + unified slots) x speed (slot-seconds per second), and of the groups' egress
// caps (bytes per second; 0 when some group has none: unlimited has no finite capacity).
// A unified slot counts as a map slot here and as a reduce slot in ReduceSlots.
double MapCapacity(const ClusterShape& cluster);
double ShuffleCapacity(const ClusterShape& cluster);
int ReduceSlots(const ClusterShape& cluster);

// generator: synthetic (workload_synthetic.cc). `params` resolved.
Result<JobList> GenerateSynthetic(const sched::PolicyOptions& params, uint64_t seed,
                                  const ClusterShape& cluster, ImportSummary* summary);

// generator: asrpt (workload_asrpt.cc): the slotted model's paper workloads as live jobs.
// `params` resolved. InvalidArgument when the cluster has no unified slot.
Result<JobList> GenerateAsrpt(const sched::PolicyOptions& params, uint64_t seed,
                              const ClusterShape& cluster, ImportSummary* summary);

// generator: makespan (workload_makespan.cc): the makespan paper's batches, all at time 0,
// the paper's time unit scaled by `time_scale`. `params` resolved. CheckMakespanWorkloadName:
// InvalidArgument listing the known names.
Result<JobList> GenerateMakespanBatch(const sched::PolicyOptions& params, uint64_t seed,
                                      const ClusterShape& cluster, ImportSummary* summary);
Status CheckMakespanWorkloadName(std::string_view text);

// The job CSV (workload_csv.cc); `source` names the text in errors ("FILE:LINE: column").
Result<JobList> ParseJobCsv(std::string_view text, const std::string& source);

// A SWIM trace (workload_swim.cc), its window mapped by `params` (resolved).
Result<JobList> MapSwimTrace(std::string_view text, const std::string& source,
                             const sched::PolicyOptions& params, const ClusterShape& cluster,
                             ImportSummary* summary);

}  // namespace mr::experiment
