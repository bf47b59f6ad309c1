// PlacedScheduler: a policy (which job's task runs next) joined with a map placement
// stage (which worker a map runs on; scheduler/map_placement.h) behind the one Scheduler
// interface, so the master and the task-level simulator drive both with one call. Each
// round: the stage dispatches every pending map to a worker's queue (Decision::queue);
// the policy then sees, as its pending maps, the maps queued at workers that have a free
// map or unified slot, and picks jobs as it always does; each map assignment it makes
// (job j on worker w) is bound to the first map of j queued at w, else to a map of j
// queued at another worker with a slot of that kind still free (a cluster-scope policy),
// else dropped (the slot waits for the next round). Reduces, kills and shares pass
// through unchanged. Not thread-safe.
#pragma once

#include <memory>
#include <string_view>

#include "common/status.h"
#include "scheduler/stages/map_placement.h"
#include "scheduler/scheduler.h"

namespace mr::sched {

class PlacedScheduler : public Scheduler {
 public:
  PlacedScheduler(std::unique_ptr<Scheduler> policy, PlacementConfig config)
      : policy_(std::move(policy)), placement_(std::move(config)) {}

  std::string_view name() const override { return policy_->name(); }
  SnapshotScope scope() const override { return policy_->scope(); }
  bool requires_unified_slots() const override { return policy_->requires_unified_slots(); }
  Decision Schedule(const Snapshot& snap) override;
  Status AdmitJob(const JobParams& job) const override { return policy_->AdmitJob(job); }
  bool MayRunOn(const JobParams& job, const WorkerLabels& labels) const override {
    return policy_->MayRunOn(job, labels);
  }
  std::vector<QueueUse> Queues(const Snapshot& snap) const override { return policy_->Queues(snap); }

  const MapPlacement& placement() const { return placement_; }

 private:
  std::unique_ptr<Scheduler> policy_;
  MapPlacement placement_;
};

// `policy` itself for --placement pull, else the policy wrapped in a PlacedScheduler.
// InvalidArgument for bad mep parameters (the message names the flag).
Result<std::unique_ptr<Scheduler>> WithPlacement(std::unique_ptr<Scheduler> policy, const PlacementConfig& config);

}  // namespace mr::sched
