#include "master/unified_slots_guard.h"

#include <vector>

#include "common/log.h"

namespace mr::master {

std::string UnifiedSlotsGuard::Reason(size_t live) const {
  return "policy " + policy_ + " needs workers with unified slots (mr worker --unified-slots N); none of the " +
         std::to_string(live) + " live worker" + (live == 1 ? "" : "s") + " has one";
}

void UnifiedSlotsGuard::OnRegister(const WorkerRecord& w) {
  if (!required_) return;
  if (w.info.unified_slots() == 0 && !logged_) {
    logged_ = true;
    MR_LOG_WARN("worker {} has no unified slots: policy {} places tasks on unified slots only, and fails "
                "its jobs when no live worker has one (mr worker --unified-slots N)",
                w.id, policy_);
  }
  Check();
}

bool UnifiedSlotsGuard::Blocked() const {
  if (!required_ || state_.workers.empty()) return false;
  for (const auto& [id, w] : state_.workers) {
    if (w.info.unified_slots() > 0) return false;
  }
  return true;
}

void UnifiedSlotsGuard::Check() {
  if (!Blocked()) {
    missing_since_ = -1;
    return;
  }
  const size_t live = state_.workers.size();
  const double now = state_.Now();
  if (missing_since_ < 0) missing_since_ = now;
  if (now - missing_since_ < state_.options.worker_timeout) return;
  std::vector<JobRecord*> running;
  for (auto& [jid, job] : state_.jobs) {
    if (!job->finished()) running.push_back(job.get());
  }
  if (running.empty()) return;
  const std::string reason = Reason(live);
  MR_LOG_ERROR("failing {} job(s): {}", running.size(), reason);
  for (JobRecord* job : running) lifecycle_.FinishJob(*job, JobState::kFailed, reason);
}

}  // namespace mr::master
