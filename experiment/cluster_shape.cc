#include "experiment/cluster_shape.h"

#include <string>

namespace mr::experiment {

const char* WorkModeName(WorkMode mode) { return mode == WorkMode::kSleep ? "sleep" : "burn"; }

Result<model::ClusterSpec> ToClusterSpec(const ClusterShape& shape) {
  model::ClusterSpec spec;
  for (size_t g = 0; g < shape.groups.size(); ++g) {
    const WorkerGroup& group = shape.groups[g];
    if (!(group.shuffle_bandwidth > 0)) {
      return Status::InvalidArgument("worker group " + std::to_string(g + 1) +
                                     " has no shuffle cap: the simulator needs a finite link rate");
    }
    model::WorkerSpec w;
    w.map_slots = group.map_slots;
    w.reduce_slots = group.reduce_slots;
    w.unified_slots = group.unified_slots;
    w.speed = group.speed;
    w.shuffle_bandwidth = group.shuffle_bandwidth;
    w.labels = group.labels;
    for (int i = 0; i < group.count; ++i) {
      w.straggler = group.straggler;
      if (w.straggler.enabled) w.straggler.seed = group.straggler.seed + static_cast<uint64_t>(i);
      spec.worker_specs.push_back(w);
    }
  }
  if (spec.worker_specs.empty()) return Status::InvalidArgument("the cluster has no workers");
  spec.workers = static_cast<int>(spec.worker_specs.size());
  spec.slow_start = shape.slow_start;
  return spec;
}

}  // namespace mr::experiment
