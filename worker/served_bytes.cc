#include "worker/served_bytes.h"

namespace mr::worker {

void ServedBytes::AddTo(shuffle::ShuffleServer& server, double now, proto::Heartbeat* hb) {
  if (since_ == 0) since_ = now;
  if (now - since_ < kServedReportSeconds) return;
  for (const auto& [job, bytes] : server.bytes_sent_by_job()) {
    uint64_t& last = reported_[job];
    if (bytes <= last) continue;
    auto* e = hb->add_served();
    e->set_job_id(job);
    e->set_bytes(bytes - last);
    last = bytes;
  }
  if (hb->served_size() > 0) {
    hb->set_served_since(since_);
    hb->set_served_until(now);
  }
  since_ = now;
  // Finished jobs have had their last bytes reported above: forget them on both sides
  // together (forgetting one alone would report a job's whole total again).
  for (uint64_t job : finished_) {
    server.ForgetJob(job);
    reported_.erase(job);
  }
  finished_.clear();
}

}  // namespace mr::worker
