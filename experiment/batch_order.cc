#include "experiment/batch_order.h"

#include "model/makespan/batch_sim.h"
#include "model/makespan/johnson.h"

namespace mr::experiment {

Result<std::vector<int>> BatchOrder(const JobList& jobs, const ClusterShape& shape, const std::string& order) {
  if (order != "johnson" && order != "reverse-johnson") {
    return Status::InvalidArgument("unknown batch order '" + order + "' (known: johnson, reverse-johnson)");
  }
  model::SlotShape slots{0, 0};
  for (const WorkerGroup& g : shape.groups) {
    slots.map_slots += g.count * (g.map_slots + g.unified_slots);
    slots.reduce_slots += g.count * (g.reduce_slots + g.unified_slots);
  }
  if (slots.map_slots < 1 || slots.reduce_slots < 1) {
    return Status::InvalidArgument("a batch order needs map and reduce slots");
  }
  std::vector<model::JobProfile> profiles;
  std::vector<int> all;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const model::TaskJob& j = jobs[i];
    if (j.arrival != 0) {
      return Status::InvalidArgument(order + " orders a batch: every job must arrive at 0 (workload batch: true)");
    }
    const std::vector<double> maps(j.maps, j.map_seconds), reduces(j.reducers, j.reduce_seconds);
    profiles.push_back(model::ProfileFromDurations("job " + std::to_string(i), maps, reduces));
    all.push_back(static_cast<int>(i));
  }
  std::vector<int> johnson = model::JohnsonOrderOn(profiles, all, slots);
  return order == "johnson" ? johnson : model::Reversed(johnson);
}

Result<JobList> OrderedBatch(const JobList& jobs, const ClusterShape& shape, const std::string& order) {
  if (order.empty()) return jobs;
  MR_ASSIGN_OR_RETURN(std::vector<int> positions, BatchOrder(jobs, shape, order));
  JobList out = jobs;
  for (size_t p = 0; p < positions.size(); ++p) out[positions[p]].arrival = static_cast<double>(p) * kBatchOrderStagger;
  return out;
}

}  // namespace mr::experiment
