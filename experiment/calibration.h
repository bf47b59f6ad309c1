// Calibration of a cluster shape: the few numbers the task-level simulator needs that the
// experiment file cannot say, measured on the local cluster by three standard jobs before
// any run it predicts (docs/experiments.md, "Calibration"), stored as JSON and reused for
// the same shape. A prediction uses the experiment file's workload and this, nothing else.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "experiment/cluster_shape.h"
#include "experiment/experiment.h"
#include "model/tasksim/task_sim.h"
#include "trace/event.h"

namespace mr::experiment {

struct Calibration {
  std::string shape_hash;        // ShapeHash of the shape it was measured on
  double task_start_seconds = 0; // a zero-work map's run time, by its worker's clock
  double map_speed_factor = 1;   // measured slot rate / the rate --speed promises
  double link_rate = 0;          // bytes/s a busy worker's shuffle link carries
  double decision_latency = 0;   // s from a task's end to the next assignment on its slot
  // Processor sharing of the host (burn mode): the cores the cluster's tasks share, and the
  // rate of a task that has a core to itself over the rate --speed promises. 0 cores = a
  // core per slot (sleep mode, or a calibration from before these were measured): the
  // simulator then applies map_speed_factor to every task whatever else runs.
  int host_cores = 0;
  double core_speed = 1;
  // The shuffle's CPU (burn mode): core-seconds the cluster's processes spent per byte the
  // link job moved (map output written, served, fetched, merged). 0 = not measured (older
  // calibrations, or a cluster whose processes' CPU cannot be read).
  double shuffle_cpu_per_byte = 0;
  std::string measured_at;       // UTC time of the measurement, for the record
};

// A stable hex digest of what the calibration depends on: the worker groups (count, map,
// reduce and unified slots, speed, cap), the heartbeat and the work mode. Slow start and
// the workload do not enter. Shapes without unified slots in burn mode hash as before.
std::string ShapeHash(const ClusterShape& shape);
// results/calibration-<hash>.json under `results_root`.
std::string DefaultCalibrationPath(const std::string& results_root, const ClusterShape& shape);

std::string CalibrationJson(const Calibration& c);
// InvalidArgument naming the field that is missing or not a number.
Result<Calibration> ParseCalibration(std::string_view json_text);

// The standard jobs, run one after another on an idle cluster of `shape`: [0] zero-work
// maps (task start, decision latency), [1] maps of 1 s of work (slot rate), [2] maps that
// only emit bytes, one reducer per worker (link rate). Map and unified slots both run maps
// and are counted together; the slot rate measured on them applies to reduce work too
// (a synthetic reduce spends its seconds as a map does, in the shape's work mode).
std::vector<model::TaskJob> CalibrationJobs(const ClusterShape& shape);

// The calibration from the master's traces of the standard jobs (in CalibrationJobs order),
// measured on a host whose tasks share `host_cores` CPUs (0 = a core per slot, as in sleep
// mode). core_speed comes from the 1-second maps: each one's work over its busy time
// weighted by its share of a core, min(1, host_cores / running maps), integrated over its
// run. shuffle_cpu_per_byte is link_cpu_seconds (the CPU the cluster's processes used during
// the link job, above their idle rate; 0 = not measured) over the bytes that job served.
// InvalidArgument when a trace lacks what its job must show (no finished map, no served bytes).
Result<Calibration> DeriveCalibration(const ClusterShape& shape,
                                      const std::vector<std::vector<trace::Event>>& traces,
                                      int host_cores = 0, double link_cpu_seconds = 0);
// The CPUs this process may run on (its affinity mask), at least 1.
int AvailableCores();

// Calibrations move a few percent between measurements on one machine (docs/experiments.md):
// `mr experiment calibrate` measures this many rounds and keeps each number's median.
inline constexpr int kCalibrationRounds = 3;
// Each number the median of `rounds` (host_cores, shape and time from the first).
// REQUIRES: !rounds.empty().
Calibration MedianCalibration(const std::vector<Calibration>& rounds);

// The simulator's cluster with the calibration applied: every worker's speed times
// map_speed_factor (with host_cores: times core_speed, and the tasks share host_cores
// cores); its link at the calibrated rate (capped by the shape's cap, if any); decision
// latency as measured.
Result<model::ClusterSpec> CalibratedCluster(const ClusterShape& shape, const Calibration& c);
// The jobs with the task start cost added to every map's and reduce's work, in work units
// of the cluster's mean calibrated slot speed.
JobList CalibratedJobs(const JobList& jobs, const ClusterShape& shape, const Calibration& c);

}  // namespace mr::experiment
