// The experiment's cluster shape in the task-level simulator's terms.
#pragma once

#include "common/status.h"
#include "experiment/experiment.h"
#include "model/tasksim/task_sim.h"

namespace mr::experiment {

// One simulator worker per live worker, in group order. InvalidArgument when the shape
// cannot be simulated: no workers, or a worker without a shuffle cap (the simulator needs
// a finite link rate; give the cap the calibration measured, docs/experiments.md).
Result<model::ClusterSpec> ToClusterSpec(const ClusterShape& shape);

}  // namespace mr::experiment
