// RequestHandler: what the master answers to each message of one peer connection, with no
// transport. The TCP session (master_server.cc), the fuzz target and unit tests feed it
// decoded Envelopes and carry its replies; the handshake (Hello, Auth) and the per-connection
// checks (PeerGate) are here, so every caller enforces the same rules. Framing, deadlines and
// admission stay with the transport. Not thread-safe: call it on the tracker's thread.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "common/auth.h"
#include "master/job_tracker.h"
#include "master/message_checks.h"
#include "mr.pb.h"

namespace mr::master {

// The longest a WaitJobRequest is held: a client that vanished while waiting costs a
// parked connection for at most this long.
inline constexpr uint32_t kMaxWaitJobMs = 60000;

// What the handler knows of one connection; the transport keeps one per connection.
class PeerConnection {
 public:
  explicit PeerConnection(std::string peer) : peer_(std::move(peer)) {}
  const std::string& peer() const { return peer_; }  // for logs
  // Through the handshake: requests are accepted, frames up to kMaxControlFrameBytes.
  bool ready() const { return phase_ == Phase::kReady; }
  uint32_t max_frame_bytes() const { return ready() ? kMaxControlFrameBytes : kMaxHandshakeFrameBytes; }
  // The worker id this connection registered (0: none yet, or a client).
  uint32_t worker_id() const { return worker_id_; }

 private:
  friend class RequestHandler;
  enum class Phase { kHello, kAuth, kReady };
  std::string peer_;
  Phase phase_ = Phase::kHello;
  std::string role_;
  std::string nonce_;             // our challenge, while in kAuth
  std::optional<PeerGate> gate_;  // set once the Hello is accepted
  uint32_t worker_id_ = 0;
};

// The answer to one message.
struct HandlerOutcome {
  proto::Envelope reply;  // unset when park_job != 0
  bool close = false;     // close the connection once the reply is sent
  // A WaitJobRequest for a running job: no reply now. The transport answers with
  // RequestHandler::WaitJobReply(park_job) once the job ends (JobTracker's end listener)
  // or park_timeout_ms passes, whichever is first.
  uint64_t park_job = 0;
  uint32_t park_timeout_ms = 0;
  // Set for a request answered later (its work runs off the state thread): no reply now.
  // The transport calls it once, on the state thread, with what sends the answer (which
  // also runs on the state thread, maybe before `deferred` returns).
  std::function<void(std::function<void(proto::Envelope)> send)> deferred;
};

struct RequestHandlerOptions {
  uint32_t heartbeat_ms = 100;
  uint32_t max_heartbeats_per_second = 500;
  auth::ClusterToken token;  // none: every peer is accepted
};

class RequestHandler {
 public:
  // tracker must outlive the handler.
  RequestHandler(JobTracker* tracker, RequestHandlerOptions options);

  // Handles one decoded message of conn. Never fails: a refusal is an error reply with
  // close = true (the peer is told why, then dropped).
  HandlerOutcome Handle(PeerConnection& conn, const proto::Envelope& in);
  // The status of job_id as a StatusReply (or an ErrorReply for an unknown job): the
  // deferred answer to a parked WaitJobRequest.
  proto::Envelope JobStatusReply(uint64_t job_id) const;
  // The answer to a WaitJobRequest (now, or once parked): the one job, without the worker
  // rows a StatusRequest carries, so a waiting client costs the same in any cluster.
  proto::Envelope WaitJobReply(uint64_t job_id) const;
  // An ErrorReply carrying s.
  static proto::Envelope ErrorReply(const Status& s);
  // The heartbeat interval every worker is told (RegisterReply, HeartbeatReply): grows with
  // the worker count so idle heartbeats stay under max_heartbeats_per_second, but not past
  // a third of the worker timeout; never below heartbeat_ms.
  uint32_t HeartbeatMs() const;
  // The status page's bound host:port, told to clients in every SubmitReply; "" = none.
  void set_page_address(std::string address) { page_address_ = std::move(address); }

 private:
  HandlerOutcome HandleHello(PeerConnection& conn, const proto::Envelope& in);
  HandlerOutcome HandleAuth(PeerConnection& conn, const proto::Envelope& in);
  HandlerOutcome HandleRequest(PeerConnection& conn, const proto::Envelope& in);

  JobTracker* tracker_;
  RequestHandlerOptions options_;
  std::string page_address_;
};

}  // namespace mr::master
