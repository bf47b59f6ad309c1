#include "master/request_handler.h"

#include <algorithm>

#include "common/clock.h"
#include "common/job_id.h"
#include "common/log.h"
#include "common/version.h"

namespace mr::master {

namespace {

bool IsFinalState(const std::string& state) {
  return state == "SUCCEEDED" || state == "FAILED" || state == "KILLED";
}

HandlerOutcome Reply(proto::Envelope out, bool close = false) {
  HandlerOutcome o;
  o.reply = std::move(out);
  o.close = close;
  return o;
}

HandlerOutcome Refusal(const Status& s) { return Reply(RequestHandler::ErrorReply(s), /*close=*/true); }

proto::Envelope StatusEnvelope(Result<proto::StatusReply> r) {
  if (!r.ok()) return RequestHandler::ErrorReply(r.status());
  proto::Envelope out;
  *out.mutable_status_reply() = std::move(r).value();
  return out;
}

}  // namespace

RequestHandler::RequestHandler(JobTracker* tracker, RequestHandlerOptions options)
    : tracker_(tracker), options_(std::move(options)) {}

proto::Envelope RequestHandler::ErrorReply(const Status& s) {
  proto::Envelope out;
  auto* e = out.mutable_error();
  e->set_code(static_cast<uint32_t>(s.code()));
  e->set_message(s.message());
  return out;
}

uint32_t RequestHandler::HeartbeatMs() const {
  uint64_t spread = tracker_->worker_count() * 1000 / std::max<uint64_t>(1, options_.max_heartbeats_per_second);
  // Never so long that a worker is lost for one late heartbeat: at most a third of the
  // worker timeout, where the rate cap gives way (5,000 workers at 500/s would be 10 s).
  const auto most = static_cast<uint64_t>(tracker_->worker_timeout() * 1000 / 3);
  return static_cast<uint32_t>(std::max<uint64_t>(options_.heartbeat_ms, std::min(spread, most)));
}

proto::Envelope RequestHandler::JobStatusReply(uint64_t job_id) const {
  return StatusEnvelope(tracker_->GetStatus(job_id));
}

proto::Envelope RequestHandler::WaitJobReply(uint64_t job_id) const {
  return StatusEnvelope(tracker_->GetJobStatus(job_id));
}

HandlerOutcome RequestHandler::Handle(PeerConnection& conn, const proto::Envelope& in) {
  switch (conn.phase_) {
    case PeerConnection::Phase::kHello: return HandleHello(conn, in);
    case PeerConnection::Phase::kAuth: return HandleAuth(conn, in);
    case PeerConnection::Phase::kReady: return HandleRequest(conn, in);
  }
  return Refusal(Status::Internal("bad connection phase"));
}

HandlerOutcome RequestHandler::HandleHello(PeerConnection& conn, const proto::Envelope& in) {
  if (!in.has_hello()) {
    MR_LOG_WARN("closing connection from {}: expected Hello first", conn.peer_);
    return Refusal(Status::ProtocolError("expected Hello first"));
  }
  const proto::Hello& hello = in.hello();
  proto::Envelope out;
  auto* r = out.mutable_hello_reply();
  r->set_protocol_version(kProtocolVersion);
  r->set_master_time(SystemClock::Get()->Now());
  Status s = hello.protocol_version() == kProtocolVersion
                 ? CheckHello(hello)
                 : Status::ProtocolError("protocol version mismatch: peer speaks " +
                                         std::to_string(hello.protocol_version()) + ", master speaks " +
                                         std::to_string(kProtocolVersion));
  if (!s.ok()) {
    r->set_accepted(false);
    r->set_error(s.message());
    MR_LOG_WARN("refused peer {}: {}", conn.peer_, s.message());
    return Reply(std::move(out), /*close=*/true);
  }
  r->set_accepted(true);
  r->add_features(kFeatureWaitJob);
  r->add_features(kFeatureKillJob);
  r->add_features(kFeatureTaskAttempts);
  r->add_features(kFeatureSubmitRetry);
  conn.gate_.emplace(hello.role());
  if (!options_.token.enabled()) {
    conn.phase_ = PeerConnection::Phase::kReady;
    return Reply(std::move(out));
  }
  auto nonce = auth::RandomBytes(auth::kNonceBytes);
  if (!nonce.ok()) return Refusal(nonce.status());
  conn.nonce_ = std::move(nonce).value();
  r->set_auth_required(true);
  r->set_nonce(conn.nonce_);
  // Mutual: prove the token on the peer's challenge so it knows this is its cluster.
  if (!hello.nonce().empty()) r->set_proof(options_.token.Prove(hello.nonce(), auth::kRoleMaster, kProtocolVersion));
  conn.role_ = hello.role();
  conn.phase_ = PeerConnection::Phase::kAuth;
  return Reply(std::move(out));
}

HandlerOutcome RequestHandler::HandleAuth(PeerConnection& conn, const proto::Envelope& in) {
  if (!in.has_auth() || !options_.token.Verify(conn.nonce_, conn.role_, kProtocolVersion, in.auth().proof())) {
    MR_LOG_WARN("refused {} {}: {}", conn.role_, conn.peer_, auth::kAuthFailedMessage);
    return Refusal(Status::PermissionDenied(auth::kAuthFailedMessage));
  }
  proto::Envelope out;
  out.mutable_auth_result()->set_ok(true);
  conn.nonce_.clear();
  conn.phase_ = PeerConnection::Phase::kReady;
  return Reply(std::move(out));
}

HandlerOutcome RequestHandler::HandleRequest(PeerConnection& conn, const proto::Envelope& in) {
  if (Status s = conn.gate_->Check(in, JobShapesOf(*tracker_)); !s.ok()) {
    MR_LOG_WARN("closing connection from {}: {}", conn.peer_, s.ToString());
    return Refusal(s);
  }
  proto::Envelope out;
  switch (in.msg_case()) {
    case proto::Envelope::kRegisterWorker: {
      auto r = tracker_->Register(in.register_worker());
      if (!r.ok()) return Refusal(r.status());
      conn.gate_->Registered(r->worker_id(), in.register_worker());
      conn.worker_id_ = r->worker_id();
      *out.mutable_register_reply() = std::move(r).value();
      out.mutable_register_reply()->set_heartbeat_ms(HeartbeatMs());
      return Reply(std::move(out));
    }
    case proto::Envelope::kHeartbeat: {
      auto r = tracker_->Heartbeat(in.heartbeat());
      if (!r.ok()) return Reply(ErrorReply(r.status()));
      *out.mutable_heartbeat_reply() = std::move(r).value();
      out.mutable_heartbeat_reply()->set_heartbeat_ms(HeartbeatMs());
      return Reply(std::move(out));
    }
    case proto::Envelope::kSubmit: {
      auto answer = [page = page_address_](Result<uint64_t> r) {
        if (!r.ok()) return ErrorReply(r.status());
        proto::Envelope reply;
        reply.mutable_submit_reply()->set_job_id(*r);
        reply.mutable_submit_reply()->set_page_address(page);
        return reply;
      };
      const proto::JobSpec& spec = in.submit().spec();
      if (spec.input_server().empty() && spec.output_server().empty()) return Reply(answer(tracker_->Submit(spec)));
      // Inputs or output behind a data server: answered once planned off the state thread
      // and admitted (JobTracker::SubmitAsync).
      HandlerOutcome later;
      later.deferred = [tracker = tracker_, spec, answer](std::function<void(proto::Envelope)> send) {
        tracker->SubmitAsync(spec, [send = std::move(send), answer](Result<uint64_t> r) { send(answer(std::move(r))); });
      };
      return later;
    }
    case proto::Envelope::kWaitJob: {
      uint64_t id = in.wait_job().job_id();
      auto r = tracker_->GetJobStatus(id);
      if (r.ok() && !IsFinalState(r->jobs(0).state())) {
        HandlerOutcome parked;
        parked.park_job = id;
        parked.park_timeout_ms = std::min(in.wait_job().timeout_ms(), kMaxWaitJobMs);
        return parked;
      }
      return Reply(StatusEnvelope(std::move(r)));  // ended, or unknown: answer now
    }
    case proto::Envelope::kKillJob: {
      auto r = tracker_->Kill(in.kill_job().job_id());
      MR_LOG_INFO("kill of {} asked by {}: {}", JobIdString(in.kill_job().job_id()), conn.peer_,
                  r.ok() ? std::string("killed") : r.status().message());
      if (!r.ok()) return Reply(ErrorReply(r.status()));
      *out.mutable_kill_job_reply()->mutable_job() = std::move(r).value();
      return Reply(std::move(out));
    }
    case proto::Envelope::kTaskAttempts: {
      HandlerOutcome later;
      later.deferred = [tracker = tracker_, job = in.task_attempts().job_id(),
                        task = in.task_attempts().task()](std::function<void(proto::Envelope)> send) {
        tracker->TaskAttempts(job, task, [send = std::move(send)](Result<proto::TaskAttemptsReply> r) {
          if (!r.ok()) return send(ErrorReply(r.status()));
          proto::Envelope reply;
          *reply.mutable_task_attempts_reply() = std::move(r).value();
          send(std::move(reply));
        });
      };
      return later;
    }
    default:  // kStatus: the gate lets nothing else through
      return Reply(JobStatusReply(in.status().job_id()));
  }
}

}  // namespace mr::master
