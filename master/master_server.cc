#include "master/master_server.h"

#include <future>
#include <list>
#include <map>

#include <asio.hpp>

#include "common/auth.h"
#include "common/file_util.h"
#include "common/framing.h"
#include "common/job_id.h"
#include "common/log.h"
#include "common/version.h"
#include "master/http_server.h"
#include "master/job_tracker.h"
#include "master/message_checks.h"
#include "master/status_provider.h"
#include "mr.pb.h"

namespace mr::master {

namespace {

class Session;

// The longest a WaitJobRequest is held: a client that vanished while waiting costs a
// parked session for at most this long (it is not reading its socket meanwhile).
constexpr uint32_t kMaxWaitJobMs = 60000;

bool IsFinalState(const std::string& state) {
  return state == "SUCCEEDED" || state == "FAILED" || state == "KILLED";
}

// Per-server state every Session reads; lives on the state thread with the sessions.
struct SessionContext {
  JobTracker* tracker = nullptr;
  uint32_t heartbeat_ms = 100;
  uint32_t max_heartbeats_per_second = 500;

  // The interval every worker is told (RegisterReply, HeartbeatReply).
  uint32_t HeartbeatMs() const {
    uint64_t spread = tracker->worker_count() * 1000 / std::max<uint64_t>(1, max_heartbeats_per_second);
    return static_cast<uint32_t>(std::max<uint64_t>(heartbeat_ms, spread));
  }
  auth::ClusterToken token;
  double handshake_timeout_seconds = 10;
  // Admission (docs/reliability.md): sessions that have not completed the handshake, oldest
  // first, at most max_pending of them. Every local peer shares 127.0.0.1, so the pool is
  // per server, not per address; when it is full a new connection drops the oldest, so a
  // peer that connects and speaks at once always gets its turn. Ready sessions (registered
  // workers, authenticated clients) are not in it and never refused for load.
  std::list<std::weak_ptr<Session>> pending;
  size_t max_pending = 256;
  // Sessions parked on a WaitJobRequest, by job; expired or woken entries are skipped.
  std::multimap<uint64_t, std::weak_ptr<Session>> job_waiters;
};

// One peer connection. Request/response: read a frame, answer it, read the next. Phases:
// Hello -> (Auth, when the master has a token) -> Ready; before Ready only the handshake is
// accepted, frames are capped at kMaxHandshakeFrameBytes, and a deadline drops a peer that
// stalls. Any refusal is answered (ErrorReply or a HelloReply saying why) and then closed.
// Owned by shared_ptr while an async operation is in flight.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(asio::ip::tcp::socket socket, SessionContext* ctx)
      : socket_(std::move(socket)), ctx_(ctx), deadline_(socket_.get_executor()) {
    asio::error_code ec;
    auto ep = socket_.remote_endpoint(ec);
    peer_ = ec ? "unknown peer" : ep.address().to_string() + ":" + std::to_string(ep.port());
  }
  ~Session() { LeavePending(); }

  // Admits a new connection: drops the oldest unauthenticated sessions while the pool is full.
  static void MakeRoom(SessionContext* ctx) {
    while (!ctx->pending.empty() && ctx->pending.size() >= ctx->max_pending) {
      auto oldest = ctx->pending.front().lock();
      if (!oldest) {
        ctx->pending.pop_front();
        continue;
      }
      MR_LOG_WARN("closing connection from {}: no handshake yet, and {} newer connections are waiting", oldest->peer_,
                  ctx->pending.size());
      oldest->LeavePending();
      asio::error_code ec;
      oldest->socket_.close(ec);
    }
  }

  // The job ended: answers a session parked on it. Runs on the state thread.
  static void WakeWaiters(SessionContext* ctx, uint64_t job_id) {
    auto [begin, end] = ctx->job_waiters.equal_range(job_id);
    std::vector<std::shared_ptr<Session>> woken;
    for (auto it = begin; it != end; ++it) {
      if (auto s = it->second.lock()) woken.push_back(std::move(s));
    }
    ctx->job_waiters.erase(job_id);
    for (auto& s : woken) s->EndWait(job_id);
  }

  // REQUIRES: MakeRoom(ctx) just ran, on this state thread.
  void Start() {
    pending_it_ = ctx_->pending.insert(ctx_->pending.end(), weak_from_this());
    std::weak_ptr<Session> weak = shared_from_this();
    deadline_.expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(ctx_->handshake_timeout_seconds)));
    deadline_.async_wait([weak](asio::error_code ec) {
      auto self = weak.lock();
      if (ec || !self || self->phase_ == Phase::kReady) return;
      MR_LOG_WARN("closing connection from {}: no handshake within {}s", self->peer_,
                  self->ctx_->handshake_timeout_seconds);
      self->socket_.close(ec);
    });
    ReadHeader();
  }

 private:
  enum class Phase { kHello, kAuth, kReady };

  void ReadHeader() {
    auto self = shared_from_this();
    asio::async_read(socket_, asio::buffer(header_), [this, self](asio::error_code ec, size_t) {
      if (ec) return;
      uint32_t len = DecodeFrameLength(header_.data());
      uint32_t max = phase_ == Phase::kReady ? kMaxControlFrameBytes : kMaxHandshakeFrameBytes;
      if (len > max) {
        // Refused before any buffer is sized from the untrusted length.
        Refuse(Status::ProtocolError("frame of " + std::to_string(len) + " bytes exceeds the maximum of " +
                                     std::to_string(max)));
        return;
      }
      body_.resize(len);
      ReadBody();
    });
  }

  void ReadBody() {
    auto self = shared_from_this();
    asio::async_read(socket_, asio::buffer(body_), [this, self](asio::error_code ec, size_t) {
      if (ec) return;
      proto::Envelope in;
      if (!in.ParseFromString(body_)) {
        Refuse(Status::ProtocolError("malformed message"));
        return;
      }
      body_.clear();
      body_.shrink_to_fit();
      proto::Envelope out;
      bool keep = Handle(in, &out);
      if (waiting_job_ != 0) return;  // parked: EndWait answers
      Send(out, keep);
    });
  }

  void Send(const proto::Envelope& out, bool keep_open) {
    out_ = EncodeFrame(out.SerializeAsString());
    auto self = shared_from_this();
    asio::async_write(socket_, asio::buffer(out_), [this, self, keep_open](asio::error_code ec, size_t) {
      if (!ec && keep_open) ReadHeader();
    });
  }

  // A WaitJobRequest for a running job parks the session (no reply, no read) until the
  // job ends or the request's timeout passes; either way EndWait answers with the status.
  void ParkUntilJobEnds(uint64_t job_id, uint32_t timeout_ms) {
    waiting_job_ = job_id;
    ctx_->job_waiters.emplace(job_id, weak_from_this());
    auto self = shared_from_this();
    deadline_.expires_after(std::chrono::milliseconds(std::min(timeout_ms, kMaxWaitJobMs)));
    deadline_.async_wait([this, self, job_id](asio::error_code ec) {
      if (ec) return;
      auto [begin, end] = ctx_->job_waiters.equal_range(job_id);
      for (auto it = begin; it != end; ++it) {
        if (it->second.lock() == self) {
          ctx_->job_waiters.erase(it);
          break;
        }
      }
      EndWait(job_id);
    });
  }

  void EndWait(uint64_t job_id) {
    if (waiting_job_ != job_id) return;
    waiting_job_ = 0;
    deadline_.cancel();
    proto::Envelope out;
    AnswerStatus(job_id, &out);
    Send(out, /*keep_open=*/true);
  }

  void AnswerStatus(uint64_t job_id, proto::Envelope* out) { FillStatus(ctx_->tracker->GetStatus(job_id), out); }
  static void FillStatus(Result<proto::StatusReply> r, proto::Envelope* out) {
    if (!r.ok()) SetError(r.status(), out);
    else *out->mutable_status_reply() = std::move(r).value();
  }

  void Refuse(const Status& s) {
    MR_LOG_WARN("closing connection from {}: {}", peer_, s.ToString());
    proto::Envelope out;
    SetError(s, &out);
    Send(out, /*keep_open=*/false);
  }

  static void SetError(const Status& s, proto::Envelope* out) {
    auto* e = out->mutable_error();
    e->set_code(static_cast<uint32_t>(s.code()));
    e->set_message(s.message());
  }

  void BecomeReady() {
    phase_ = Phase::kReady;
    LeavePending();
    deadline_.cancel();
  }

  void LeavePending() {
    if (!pending_it_) return;
    ctx_->pending.erase(*pending_it_);
    pending_it_.reset();
  }

  // Returns false when the connection should close after the reply.
  bool Handle(const proto::Envelope& in, proto::Envelope* out) {
    switch (phase_) {
      case Phase::kHello: return HandleHello(in, out);
      case Phase::kAuth: return HandleAuth(in, out);
      case Phase::kReady: return HandleRequest(in, out);
    }
    return false;
  }

  bool HandleHello(const proto::Envelope& in, proto::Envelope* out) {
    if (!in.has_hello()) {
      SetError(Status::ProtocolError("expected Hello first"), out);
      MR_LOG_WARN("closing connection from {}: expected Hello first", peer_);
      return false;
    }
    const proto::Hello& hello = in.hello();
    auto* r = out->mutable_hello_reply();
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
      MR_LOG_WARN("refused peer {}: {}", peer_, s.message());
      return false;
    }
    r->set_accepted(true);
    r->add_features(kFeatureWaitJob);
    r->add_features(kFeatureKillJob);
    gate_.emplace(hello.role());
    if (!ctx_->token.enabled()) {
      BecomeReady();
      return true;
    }
    auto nonce = auth::RandomBytes(auth::kNonceBytes);
    if (!nonce.ok()) {
      SetError(nonce.status(), out);
      return false;
    }
    nonce_ = std::move(nonce).value();
    r->set_auth_required(true);
    r->set_nonce(nonce_);
    // Mutual: prove the token on the peer's challenge so it knows this is its cluster.
    if (!hello.nonce().empty()) r->set_proof(ctx_->token.Prove(hello.nonce(), auth::kRoleMaster, kProtocolVersion));
    role_ = hello.role();
    phase_ = Phase::kAuth;
    return true;
  }

  bool HandleAuth(const proto::Envelope& in, proto::Envelope* out) {
    if (!in.has_auth() || !ctx_->token.Verify(nonce_, role_, kProtocolVersion, in.auth().proof())) {
      MR_LOG_WARN("refused {} {}: {}", role_, peer_, auth::kAuthFailedMessage);
      SetError(Status::PermissionDenied(auth::kAuthFailedMessage), out);
      return false;
    }
    out->mutable_auth_result()->set_ok(true);
    BecomeReady();
    return true;
  }

  bool HandleRequest(const proto::Envelope& in, proto::Envelope* out) {
    JobTracker* tracker = ctx_->tracker;
    if (Status s = gate_->Check(in, JobShapesOf(*tracker)); !s.ok()) {
      MR_LOG_WARN("closing connection from {}: {}", peer_, s.ToString());
      SetError(s, out);
      return false;
    }
    switch (in.msg_case()) {
      case proto::Envelope::kRegisterWorker: {
        auto r = tracker->Register(in.register_worker());
        if (!r.ok()) {
          SetError(r.status(), out);
          return false;
        }
        gate_->Registered(r->worker_id(), in.register_worker());
        *out->mutable_register_reply() = std::move(r).value();
        out->mutable_register_reply()->set_heartbeat_ms(ctx_->HeartbeatMs());
        return true;
      }
      case proto::Envelope::kHeartbeat: {
        auto r = tracker->Heartbeat(in.heartbeat());
        if (!r.ok()) {
          SetError(r.status(), out);
        } else {
          *out->mutable_heartbeat_reply() = std::move(r).value();
          out->mutable_heartbeat_reply()->set_heartbeat_ms(ctx_->HeartbeatMs());
        }
        return true;
      }
      case proto::Envelope::kSubmit: {
        auto r = tracker->Submit(in.submit().spec());
        if (!r.ok()) SetError(r.status(), out);
        else out->mutable_submit_reply()->set_job_id(*r);
        return true;
      }
      case proto::Envelope::kWaitJob: {
        uint64_t id = in.wait_job().job_id();
        auto r = tracker->GetStatus(id);
        if (r.ok() && !IsFinalState(r->jobs(0).state())) {
          ParkUntilJobEnds(id, in.wait_job().timeout_ms());
          return true;
        }
        FillStatus(std::move(r), out);  // ended, or unknown: answer now
        return true;
      }
      case proto::Envelope::kKillJob: {
        auto r = tracker->Kill(in.kill_job().job_id());
        MR_LOG_INFO("kill of {} asked by {}: {}", JobIdString(in.kill_job().job_id()), peer_,
                    r.ok() ? std::string("killed") : r.status().message());
        if (!r.ok()) SetError(r.status(), out);
        else *out->mutable_kill_job_reply()->mutable_job() = std::move(r).value();
        return true;
      }
      default:  // kStatus: the gate lets nothing else through
        AnswerStatus(in.status().job_id(), out);
        return true;
    }
  }

  asio::ip::tcp::socket socket_;
  SessionContext* ctx_;
  asio::steady_timer deadline_;
  std::string peer_;
  Phase phase_ = Phase::kHello;
  std::string role_;
  std::string nonce_;               // our challenge, while in kAuth
  uint64_t waiting_job_ = 0;        // parked on a WaitJobRequest for this job (0: not)
  std::optional<std::list<std::weak_ptr<Session>>::iterator> pending_it_;  // in ctx_->pending
  std::optional<PeerGate> gate_;    // set once the Hello is accepted
  std::array<unsigned char, kFrameHeaderBytes> header_{};
  std::string body_;
  std::string out_;
};

class MasterServerImpl final : public MasterServer, public StatusProvider {
 public:
  MasterServerImpl(const MasterOptions& o, std::unique_ptr<JobTracker> tracker)
      : options_(o), tracker_(std::move(tracker)), acceptor_(io_), signals_(io_, SIGINT, SIGTERM), tick_(io_) {
    context_.tracker = tracker_.get();
    context_.heartbeat_ms = options_.heartbeat_ms;
    context_.max_heartbeats_per_second = options_.max_heartbeats_per_second;
    context_.token = options_.token;
    context_.handshake_timeout_seconds = options_.handshake_timeout_seconds;
    context_.max_pending = static_cast<size_t>(std::max(1, options_.max_pending_handshakes));
    // Posted, not called: the tracker is mid-request when a job ends, and the reply must
    // see the finished state (and the trace flushed) once that request is done.
    tracker_->SetJobEndListener([this](uint64_t job_id) {
      asio::post(io_, [this, job_id] { Session::WakeWaiters(&context_, job_id); });
    });
  }

  // StatusProvider: runs the query on the state thread and waits for it.
  Result<std::string> Get(std::string_view api_path) override {
    auto promise = std::make_shared<std::promise<Result<std::string>>>();
    auto future = promise->get_future();
    asio::post(io_, [this, promise, path = std::string(api_path)] { promise->set_value(tracker_->ApiGet(path)); });
    if (future.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
      return Status::Unavailable("master busy");
    }
    return future.get();
  }

  Status Bind() {
    asio::error_code ec;
    auto addr = asio::ip::make_address(options_.listen.host, ec);
    if (ec) return Status::InvalidArgument("bad listen address '" + options_.listen.host + "'");
    asio::ip::tcp::endpoint ep(addr, options_.listen.port);
    acceptor_.open(ep.protocol(), ec);
    if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(ep, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) return Status::NetworkError("cannot listen on " + options_.listen.ToString() + ": " + ec.message());
    auto local = acceptor_.local_endpoint();
    address_ = HostPort{local.address().to_string(), local.port()};
    return Status::Ok();
  }

  HostPort address() const override { return address_; }
  std::optional<HostPort> http_address() const override {
    return http_ ? std::optional<HostPort>(http_->address()) : std::nullopt;
  }

  Status StartHttp() {
    if (!options_.http) return Status::Ok();
    MR_ASSIGN_OR_RETURN(http_, HttpServer::Start(*options_.http, this));
    MR_LOG_INFO("status page on http://{}/", http_->address().ToString());
    return Status::Ok();
  }

  void Run() override {
    signals_.async_wait([this](asio::error_code ec, int sig) {
      if (!ec) MR_LOG_INFO("signal {}: stopping", sig);
      io_.stop();
    });
    Accept();
    Tick();
    MR_LOG_INFO("master listening on {} (policy {}, {})", address_.ToString(), tracker_->policy(),
                options_.token.enabled() ? "cluster token required" : "no cluster token: every peer is accepted");
    io_.run();
    if (http_) http_->Stop();
  }

  void Stop() override { io_.stop(); }

 private:
  // Periodic housekeeping on the state thread: lost workers, trace flushes.
  void Tick() {
    tick_.expires_after(std::chrono::milliseconds(250));
    tick_.async_wait([this](asio::error_code ec) {
      if (ec) return;
      tracker_->Tick();
      Tick();
    });
  }

  void Accept() {
    acceptor_.async_accept([this](asio::error_code ec, asio::ip::tcp::socket socket) {
      if (!ec) {
        socket.set_option(asio::ip::tcp::no_delay(true), ec);
        Session::MakeRoom(&context_);
        std::make_shared<Session>(std::move(socket), &context_)->Start();
      }
      if (acceptor_.is_open()) Accept();
    });
  }

  MasterOptions options_;
  std::unique_ptr<JobTracker> tracker_;
  SessionContext context_;  // before io_: sessions destroyed with io_ still use it
  asio::io_context io_;
  asio::ip::tcp::acceptor acceptor_;
  asio::signal_set signals_;
  asio::steady_timer tick_;
  HostPort address_;
  std::unique_ptr<HttpServer> http_;
};

}  // namespace

Result<std::unique_ptr<MasterServer>> MasterServer::Create(const MasterOptions& options) {
  if (options.state_dir.empty()) return Status::InvalidArgument("master needs --state DIR");
  // The policy first: a refused one must leave no state directory behind.
  MR_ASSIGN_OR_RETURN(auto scheduler, sched::CreateScheduler(options.policy, options.scheduler));
  MR_RETURN_IF_ERROR(MakeDirs(JoinPath(options.state_dir, "traces")));
  MR_ASSIGN_OR_RETURN(auto store, StateStore::Open(JoinPath(options.state_dir, "db")));
  auto tracker = std::make_unique<JobTracker>(SystemClock::Get(), std::move(scheduler), options.policy,
                                              AbsolutePath(options.state_dir), std::move(store), options.tracker);
  MR_RETURN_IF_ERROR(tracker->Recover());
  auto server = std::make_unique<MasterServerImpl>(options, std::move(tracker));
  MR_RETURN_IF_ERROR(server->Bind());
  MR_RETURN_IF_ERROR(server->StartHttp());
  if (!options.addr_file.empty()) {
    MR_RETURN_IF_ERROR(WriteFileAtomically(options.addr_file, server->address().ToString() + "\n"));
  }
  return std::unique_ptr<MasterServer>(std::move(server));
}

}  // namespace mr::master
