#include "master/map_queues.h"

namespace mr::master {

bool MapQueues::Queue(const sched::QueueMap& q) {
  JobRecord* job = state_.FindJob(q.job);
  if (job == nullptr || job->finished() || q.index < 0 || q.index >= static_cast<int>(job->maps.size())) return false;
  MapTask& m = job->maps[q.index];
  if (m.state != MapTask::State::kPending) return false;
  if (state_.FindWorker(q.worker) == nullptr || registry_.Blacklisted(*job, q.worker, TaskKindFilter::kMap)) {
    return false;
  }
  m.queued_at = q.worker;
  return true;
}

void MapQueues::ReleaseBlacklisted() {
  for (auto& [id, job] : state_.jobs) {
    if (job->finished()) continue;
    for (MapTask& m : job->maps) {
      if (m.queued_at != 0 && m.state == MapTask::State::kPending &&
          registry_.Blacklisted(*job, m.queued_at, TaskKindFilter::kMap)) {
        m.queued_at = 0;
      }
    }
  }
}

}  // namespace mr::master
