#include "worker/master_link.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "common/log.h"

namespace mr::worker {

MasterLink::MasterLink(Options options, Handler* handler) : options_(std::move(options)), handler_(handler) {}

Status MasterLink::Run(const std::function<bool()>& stopping) {
  auto done = [&] {
    std::lock_guard lock(mu_);
    return stop_ || stopping();
  };
  double lost_since = 0;
  while (!done()) {
    handler_->Tick();
    if (!client_) {
      Status s = Connect();
      if (!s.ok()) {
        // Refused (version mismatch, cluster token): retrying cannot help.
        if (s.code() == StatusCode::kProtocolError || s.code() == StatusCode::kPermissionDenied) return s;
        if (lost_since == 0) lost_since = MonotonicSeconds();
        if (MonotonicSeconds() - lost_since > options_.master_timeout) {
          return s.WithContext("giving up after " + std::to_string(options_.master_timeout) + "s");
        }
        WaitFor(200, false);
        continue;
      }
      lost_since = 0;
    }
    Status s = HeartbeatOnce();
    if (!s.ok()) {
      MR_LOG_WARN("lost master: {}", s.ToString());
      client_.reset();
      continue;
    }
    WaitFor(heartbeat_ms_, true);
  }
  return Status::Ok();
}

void MasterLink::Wake() {
  {
    std::lock_guard lock(mu_);
    urgent_ = true;
  }
  wake_.notify_all();
}

void MasterLink::Stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
}

void MasterLink::WaitFor(uint32_t ms, bool urgent_ends_wait) {
  std::unique_lock lock(mu_);
  wake_.wait_for(lock, std::chrono::milliseconds(ms), [&] { return stop_ || (urgent_ends_wait && urgent_); });
  if (urgent_ends_wait) urgent_ = false;
}

Status MasterLink::Connect() {
  if (registered_) {  // once per lost registration, not on every attempt to reconnect
    held_outputs_ = handler_->VoidRegistration();
    registered_ = false;
  }
  MR_ASSIGN_OR_RETURN(client_, client::MasterClient::Connect(options_.master, "worker", options_.token));
  clock_.set_offset(client_->clock_offset());
  proto::Envelope req;
  auto* r = req.mutable_register_worker();
  *r = options_.registration;
  for (const auto& h : held_outputs_) *r->add_held_outputs() = h;
  MR_ASSIGN_OR_RETURN(proto::Envelope reply, client_->Call(req));
  if (!reply.has_register_reply()) return Status::ProtocolError("master did not answer the registration");
  held_outputs_.clear();
  worker_id_ = reply.register_reply().worker_id();
  registered_ = true;
  heartbeat_ms_ = std::max(10u, reply.register_reply().heartbeat_ms());
  handler_->Registered(reply.register_reply());
  MR_LOG_INFO("registered with master {} as worker {} (shuffle port {})", options_.master.ToString(), worker_id_,
              options_.registration.shuffle_port());
  return Status::Ok();
}

Status MasterLink::HeartbeatOnce() {
  proto::Envelope req;
  auto* hb = req.mutable_heartbeat();
  hb->set_worker_id(worker_id_);
  handler_->FillHeartbeat(hb);
  MR_ASSIGN_OR_RETURN(proto::Envelope reply, client_->Call(req));
  if (!reply.has_heartbeat_reply()) return Status::ProtocolError("master sent no heartbeat reply");
  const auto& r = reply.heartbeat_reply();
  if (r.reregister()) {
    client_.reset();
    return Status::Ok();
  }
  // The master stretches the interval as the cluster grows (docs/protocol.md).
  if (r.heartbeat_ms() > 0) heartbeat_ms_ = std::max(10u, r.heartbeat_ms());
  handler_->Apply(r);
  return Status::Ok();
}

}  // namespace mr::worker
