// The experiment's cluster shape: read from the experiment file's `cluster:` section, and
// in the task-level simulator's terms.
#pragma once

#include "common/status.h"
#include "experiment/experiment.h"
#include "experiment/yaml_node.h"
#include "model/tasksim/task_sim.h"

namespace mr::experiment {

// The `cluster:` map (docs/experiments.md): its kind (local, or netns with a link rate),
// worker groups (slots, speed, shuffle cap,
// straggler injection, labels), heartbeat_ms, slow_start, work, receiver_links (on|off; on by
// default for netns, off for local). Errors: InvalidArgument
// naming the file, line and key path (YamlNode::Error).
Result<ClusterShape> ParseClusterShape(const YamlNode& node);

// The live master's periodic round (master/job_tracker.h, JobTracker::kShareRefreshSeconds):
// the simulator stands in for the master with the same period (ClusterSpec::refresh_rounds).
inline constexpr double kMasterRefreshRounds = 0.1;

// "local" / "netns".
const char* ClusterKindName(ClusterKind kind);

// The shuffle bandwidth the simulator gives a worker of `group`: its software cap, the
// link rate of a netns cluster, the smaller of the two when both are set, 0 when neither.
// The model's station is the sender's egress (docs/multi-host.md, "Shuffle policies on
// shaped links", says what that leaves out).
double SimulatedShuffleBandwidth(const ClusterShape& shape, const WorkerGroup& group);

// One simulator worker per live worker, in group order, with the master's periodic round
// (kMasterRefreshRounds) and the shape's receiver_links. InvalidArgument when the shape
// cannot be simulated: no workers, or a worker with neither a shuffle cap nor a link rate (the
// simulator needs a finite rate; give the cap the calibration measured, docs/experiments.md).
Result<model::ClusterSpec> ToClusterSpec(const ClusterShape& shape);

}  // namespace mr::experiment
