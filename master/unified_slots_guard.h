// UnifiedSlotsGuard: a policy defined over one pool of unified slots
// (Scheduler::requires_unified_slots, e.g. asrpt) is not run on a cluster whose live
// workers have only map and reduce slots. While at least one worker is live and none has
// a unified slot, the master holds the policy's rounds (Blocked) and the guard fails every
// running job with the reason once that has lasted TrackerOptions::worker_timeout (the
// grace a restarting worker also gets to come back, as in recovery): the outcome does not
// depend on whether a job could finish within the grace. With no live worker at all jobs
// wait, as under every policy. Not thread-safe: the master's state thread only.
#pragma once

#include <string>

#include "master/job_lifecycle.h"
#include "master/tracker_state.h"

namespace mr::master {

class UnifiedSlotsGuard {
 public:
  // required: the policy's requires_unified_slots(); policy: its name, for the reason.
  UnifiedSlotsGuard(TrackerState& state, JobLifecycle& lifecycle, bool required, std::string policy)
      : state_(state), lifecycle_(lifecycle), required_(required), policy_(std::move(policy)) {}

  // A worker registered: logs once (the first worker without unified slots) that the
  // policy cannot use it, then checks.
  void OnRegister(const WorkerRecord& w);
  // Fails the running jobs if no live worker has had a unified slot for the grace period.
  void Check();
  // True while the policy needs unified slots and live workers have none: no round runs.
  bool Blocked() const;
  // The user-facing reason a job fails with, for `live` workers without unified slots.
  std::string Reason(size_t live) const;

 private:
  TrackerState& state_;
  JobLifecycle& lifecycle_;
  const bool required_;
  const std::string policy_;
  double missing_since_ = -1;  // since when no live worker has a unified slot; -1: one has
  bool logged_ = false;
};

}  // namespace mr::master
