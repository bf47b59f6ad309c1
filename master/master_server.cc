#include "master/master_server.h"

#include <functional>
#include <future>
#include <iterator>
#include <list>
#include <map>

#include <asio.hpp>

#include "common/clock.h"
#include "common/file_util.h"
#include "common/framing.h"
#include "common/log.h"
#include "common/thread_name.h"
#include "master/http_server.h"
#include "master/job_tracker.h"
#include "master/request_handler.h"
#include "master/status_provider.h"
#include "master/status_view.h"
#include "master/trace_queue.h"
#include "mr.pb.h"
#include "scheduler/stages/placed_scheduler.h"
#include "shuffle/net/input_client.h"
#include "shuffle/net/output_client.h"

namespace mr::master {

namespace {

class Session;

// The thread that reads finished jobs' traces (master/job_seal.h), and the event loop their
// results go back to (set by the server before the tracker recovers).
struct SealThread {
  asio::thread_pool pool{1};
  asio::io_context* home = nullptr;
};

// Per-server state every Session reads; lives on the state thread with the sessions.
struct SessionContext {
  RequestHandler* handler = nullptr;
  double handshake_timeout_seconds = 10;
  // Admission (docs/reliability.md): sessions that have not completed the handshake, oldest
  // first, at most max_pending of them. Every local peer shares 127.0.0.1, so the pool is
  // per server, not per address; when it is full a new connection drops the oldest silent
  // one, so a peer that connects and speaks at once always gets its turn. When every
  // pending peer has spoken (a restarted master's thousands of workers, their Hellos queued
  // behind the state thread), none is dropped: accepting pauses, newcomers wait in the
  // listen backlog, and it resumes once the pool has room. Ready sessions (registered
  // workers, authenticated clients) are not in it and never refused for load.
  // A pending peer is pushed out only once it has been silent this long: a restarted
  // master's workers connect faster than they (and it) get to their Hellos.
  static constexpr double kSilentGraceSeconds = 1.0;
  std::list<std::weak_ptr<Session>> pending;
  size_t max_pending = 256;
  bool accept_paused = false;
  std::function<void()> resume_accept;  // the server's; unset while it shuts down
  // Sessions parked on a WaitJobRequest, by job; expired or woken entries are skipped.
  std::multimap<uint64_t, std::weak_ptr<Session>> job_waiters;
  // Each registered worker's connection: a worker whose heartbeat waits there is not lost.
  std::map<uint32_t, std::weak_ptr<Session>> workers;
};

std::string PeerName(const asio::ip::tcp::socket& socket) {
  asio::error_code ec;
  auto ep = socket.remote_endpoint(ec);
  return ec ? "unknown peer" : ep.address().to_string() + ":" + std::to_string(ep.port());
}

// One peer connection: the transport around RequestHandler. Request/response: read a frame,
// hand it to the handler, send its answer, read the next. Before the handshake is through,
// frames are capped at kMaxHandshakeFrameBytes and a deadline drops a peer that stalls; a
// refusal is answered and then closed. Owned by shared_ptr while an async operation is in
// flight.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(asio::ip::tcp::socket socket, SessionContext* ctx)
      : socket_(std::move(socket)), ctx_(ctx), deadline_(socket_.get_executor()), conn_(PeerName(socket_)) {}
  ~Session() {
    LeavePending();
    if (conn_.worker_id() != 0) ctx_->workers.erase(conn_.worker_id());
  }

  // Whether worker's next request has arrived (bytes unread, or a frame begun and not yet
  // answered): a state thread behind its queue must not count that wait against the worker.
  // A frame begun counts for handshake_timeout_seconds only: a peer frozen mid-frame is lost.
  static bool Heard(SessionContext* ctx, uint32_t worker) {
    auto it = ctx->workers.find(worker);
    auto s = it == ctx->workers.end() ? nullptr : it->second.lock();
    asio::error_code ec;
    if (!s) return false;
    const bool begun = s->request_at_ > 0 && MonotonicSeconds() - s->request_at_ < ctx->handshake_timeout_seconds;
    return begun || s->socket_.available(ec) > 0;
  }

  // Admits a new connection: while the pool is full, drops the oldest pending session that
  // has been silent past the grace. False if the pool stays full (every pending peer has
  // spoken or is new): the caller pauses accepting.
  static bool MakeRoom(SessionContext* ctx) {
    for (auto it = ctx->pending.begin(); it != ctx->pending.end() && ctx->pending.size() >= ctx->max_pending;) {
      auto oldest = it->lock();
      if (oldest && !oldest->MayPushOut()) {
        ++it;
        continue;
      }
      ++it;  // LeavePending erases the entry
      if (!oldest) {
        ctx->pending.erase(std::prev(it));
        continue;
      }
      MR_LOG_WARN("closing connection from {}: no handshake yet, and {} newer connections are waiting",
                  oldest->conn_.peer(), ctx->pending.size());
      oldest->LeavePending();
      asio::error_code ec;
      oldest->socket_.close(ec);
    }
    return ctx->pending.size() < ctx->max_pending;
  }

  // Whether some pending session is one a newcomer may push out.
  static bool AnySilent(SessionContext* ctx) {
    for (const auto& weak : ctx->pending) {
      auto s = weak.lock();
      if (!s || s->MayPushOut()) return true;
    }
    return false;
  }

  // Has sent nothing (no whole frame, no bytes waiting) for kSilentGraceSeconds.
  bool MayPushOut() const {
    asio::error_code ec;
    if (spoken_ || socket_.available(ec) > 0) return false;
    return MonotonicSeconds() - started_ >= SessionContext::kSilentGraceSeconds;
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
    started_ = MonotonicSeconds();
    std::weak_ptr<Session> weak = shared_from_this();
    deadline_.expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(ctx_->handshake_timeout_seconds)));
    deadline_.async_wait([weak](asio::error_code ec) {
      auto self = weak.lock();
      if (ec || !self || self->conn_.ready()) return;
      MR_LOG_WARN("closing connection from {}: no handshake within {}s", self->conn_.peer(),
                  self->ctx_->handshake_timeout_seconds);
      self->socket_.close(ec);
    });
    ReadHeader();
  }

 private:
  void ReadHeader() {
    auto self = shared_from_this();
    asio::async_read(socket_, asio::buffer(header_), [this, self](asio::error_code ec, size_t) {
      if (ec) return;
      spoken_ = true;
      request_at_ = MonotonicSeconds();
      uint32_t len = DecodeFrameLength(header_.data());
      uint32_t max = conn_.max_frame_bytes();
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
      const bool was_ready = conn_.ready();
      HandlerOutcome out = ctx_->handler->Handle(conn_, in);
      if (!was_ready && conn_.ready()) BecomeReady();
      if (conn_.worker_id() != 0) ctx_->workers.try_emplace(conn_.worker_id(), weak_from_this());
      if (out.park_job != 0) {
        ParkUntilJobEnds(out.park_job, out.park_timeout_ms);  // EndWait answers
        return;
      }
      if (out.deferred) {
        out.deferred([self](proto::Envelope reply) { self->Send(reply, /*keep_open=*/true); });
        return;
      }
      Send(out.reply, !out.close);
    });
  }

  void Send(const proto::Envelope& out, bool keep_open) {
    request_at_ = 0;
    out_ = EncodeFrame(out.SerializeAsString());
    auto self = shared_from_this();
    asio::async_write(socket_, asio::buffer(out_), [this, self, keep_open](asio::error_code ec, size_t) {
      if (!ec && keep_open) ReadHeader();
    });
  }

  // A parked session sends nothing and reads nothing until the job ends or the timeout
  // passes; either way EndWait answers with the status.
  void ParkUntilJobEnds(uint64_t job_id, uint32_t timeout_ms) {
    waiting_job_ = job_id;
    ctx_->job_waiters.emplace(job_id, weak_from_this());
    auto self = shared_from_this();
    deadline_.expires_after(std::chrono::milliseconds(timeout_ms));
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
    Send(ctx_->handler->WaitJobReply(job_id), /*keep_open=*/true);
  }

  void Refuse(const Status& s) {
    MR_LOG_WARN("closing connection from {}: {}", conn_.peer(), s.ToString());
    Send(RequestHandler::ErrorReply(s), /*keep_open=*/false);
  }

  void BecomeReady() {
    LeavePending();
    deadline_.cancel();
  }

  void LeavePending() {
    if (!pending_it_) return;
    ctx_->pending.erase(*pending_it_);
    pending_it_.reset();
    if (ctx_->accept_paused && ctx_->pending.size() < ctx_->max_pending && ctx_->resume_accept) {
      ctx_->accept_paused = false;
      ctx_->resume_accept();
    }
  }

  asio::ip::tcp::socket socket_;
  SessionContext* ctx_;
  asio::steady_timer deadline_;
  PeerConnection conn_;
  uint64_t waiting_job_ = 0;        // parked on a WaitJobRequest for this job (0: not)
  bool spoken_ = false;             // a whole frame header has arrived
  double started_ = 0;              // MonotonicSeconds() when admitted
  double request_at_ = 0;           // when the header of the frame being served came; 0: none
  std::optional<std::list<std::weak_ptr<Session>>::iterator> pending_it_;  // in ctx_->pending
  std::array<unsigned char, kFrameHeaderBytes> header_{};
  std::string body_;
  std::string out_;
};

class MasterServerImpl final : public MasterServer, public StatusProvider {
 public:
  MasterServerImpl(const MasterOptions& o, std::unique_ptr<JobTracker> tracker, std::shared_ptr<SealThread> seal,
                   std::shared_ptr<TraceQueue> trace_queue)
      : options_(o),
        seal_(std::move(seal)),
        trace_queue_(std::move(trace_queue)),
        tracker_(std::move(tracker)),
        handler_(tracker_.get(), RequestHandlerOptions{o.heartbeat_ms, o.max_heartbeats_per_second, o.token}),
        acceptor_(io_), signals_(io_, SIGINT, SIGTERM), tick_(io_), pause_timer_(io_) {
    seal_->home = &io_;
    context_.handler = &handler_;
    context_.handshake_timeout_seconds = options_.handshake_timeout_seconds;
    context_.max_pending = static_cast<size_t>(std::max(1, options_.max_pending_handshakes));
    context_.resume_accept = [this] { asio::post(io_, [this] { Accept(); }); };
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
    // A trace's path from the state thread, its file read here (status_view.h).
    auto trace = std::make_shared<std::optional<Result<std::string>>>();
    auto ticket = std::make_shared<uint64_t>(0);  // what the state thread has traced so far
    asio::post(io_, [this, promise, trace, ticket, path = std::string(api_path)] {
      *trace = tracker_->ApiTracePath(path);
      *ticket = trace_queue_->LastTicket();
      promise->set_value(trace->has_value() ? Result<std::string>("") : tracker_->ApiGet(path));
    });
    if (future.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
      return Status::Unavailable("master busy");
    }
    Result<std::string> answer = future.get();
    if (!trace->has_value()) return answer;
    if (!(*trace)->ok()) return (*trace)->status();
    trace_queue_->WaitWritten(*ticket);
    return TraceFileJson(***trace);
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
    handler_.set_page_address(http_->address().ToString());  // before Run: no request is served yet
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

  // A seal still running posts its result to io_: it must be done before io_ goes.
  ~MasterServerImpl() override {
    context_.resume_accept = nullptr;  // sessions closing with io_ must not re-arm the acceptor
    seal_->pool.stop();
    seal_->pool.join();
    trace_queue_->Close();  // every line traced is written before the master exits
  }

 private:
  // Periodic housekeeping on the state thread: lost workers, trace flushes.
  void Tick() {
    tick_.expires_after(std::chrono::milliseconds(250));
    tick_.async_wait([this](asio::error_code ec) {
      if (ec) return;
      tracker_->Tick([this](WorkerId id) { return Session::Heard(&context_, id); });
      Tick();
    });
  }

  void Accept() {
    acceptor_.async_accept([this](asio::error_code ec, asio::ip::tcp::socket socket) {
      if (!ec) {
        socket.set_option(asio::ip::tcp::no_delay(true), ec);
        Session::MakeRoom(&context_);  // full of peers that spoke: this one joins, then a pause
        std::make_shared<Session>(std::move(socket), &context_)->Start();
      }
      // Past the bound (a newcomer joined a pool of speakers), or full with no one to push
      // out: no more until there is room.
      if (context_.pending.size() > context_.max_pending ||
          (context_.pending.size() >= context_.max_pending && !Session::AnySilent(&context_))) {
        // LeavePending resumes; so does the grace's end, when a silent peer may go.
        context_.accept_paused = true;
        pause_timer_.expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(SessionContext::kSilentGraceSeconds)));
        pause_timer_.async_wait([this](asio::error_code e) {
          if (e || !context_.accept_paused) return;
          context_.accept_paused = false;
          Accept();
        });
        return;
      }
      if (acceptor_.is_open()) Accept();
    });
  }

  MasterOptions options_;
  std::shared_ptr<SealThread> seal_;
  std::shared_ptr<TraceQueue> trace_queue_;
  std::unique_ptr<JobTracker> tracker_;
  RequestHandler handler_;
  SessionContext context_;  // before io_: sessions destroyed with io_ still use it
  asio::io_context io_;
  asio::ip::tcp::acceptor acceptor_;
  asio::signal_set signals_;
  asio::steady_timer tick_;
  asio::steady_timer pause_timer_;  // admission paused: try again when the grace ends
  HostPort address_;
  std::unique_ptr<HttpServer> http_;
};

}  // namespace

Result<std::unique_ptr<MasterServer>> MasterServer::Create(const MasterOptions& options) {
  if (options.state_dir.empty()) return Status::InvalidArgument("master needs --state DIR");
  // The policy first: a refused one must leave no state directory behind.
  MR_ASSIGN_OR_RETURN(auto policy, sched::CreateScheduler(options.policy, options.scheduler));
  MR_ASSIGN_OR_RETURN(auto scheduler, sched::WithPlacement(std::move(policy), options.placement));
  MR_RETURN_IF_ERROR(MakeDirs(JoinPath(options.state_dir, "traces")));
  MR_ASSIGN_OR_RETURN(auto store, StateStore::Open(JoinPath(options.state_dir, "db"),
                                                   options.state_in_memory ? StateStore::Medium::kMemory
                                                                           : StateStore::Medium::kDisk));
  TrackerOptions tracker_options = options.tracker;
  tracker_options.placement = std::string(sched::PlacementModeName(options.placement.mode));
  if (!tracker_options.remote_inputs) {  // jobs whose inputs sit behind a data server
    auto cache = std::make_shared<shuffle::RemoteInputsCache>(options.token);
    tracker_options.remote_inputs = [cache](const std::string& server) -> Result<const jobs::InputSource*> {
      MR_ASSIGN_OR_RETURN(const shuffle::RemoteInputs* source, cache->For(server));
      return static_cast<const jobs::InputSource*>(source);
    };
  }
  if (!tracker_options.remote_outputs) {  // jobs whose output directory is on the submitting host
    auto cache = std::make_shared<shuffle::RemoteOutputsCache>(options.token);
    tracker_options.remote_outputs = [cache](const std::string& server) -> Result<const jobs::OutputStore*> {
      MR_ASSIGN_OR_RETURN(const shuffle::RemoteOutputs* store, cache->For(server));
      return static_cast<const jobs::OutputStore*>(store);
    };
  }
  auto seal = std::make_shared<SealThread>();
  tracker_options.offload = [seal](std::function<void()> work, std::function<void()> done) {
    // Not the shared_ptr: the pool's own thread must never be the one that destroys it.
    asio::post(seal->pool, [s = seal.get(), work = std::move(work), done = std::move(done)]() mutable {
      SetThreadName("mr-seal");  // what a per-thread profile (docs/master-load.md) shows
      work();
      asio::post(*s->home, std::move(done));
    });
  };
  auto trace_queue = std::make_shared<TraceQueue>();
  tracker_options.trace_queue = trace_queue;
  auto tracker = std::make_unique<JobTracker>(SystemClock::Get(), std::move(scheduler), options.policy,
                                              AbsolutePath(options.state_dir), std::move(store), tracker_options);
  JobTracker* recovering = tracker.get();
  auto server = std::make_unique<MasterServerImpl>(options, std::move(tracker), seal, trace_queue);
  // After the server exists: a job the recovery ends is sealed back onto its event loop.
  MR_RETURN_IF_ERROR(recovering->Recover());
  MR_RETURN_IF_ERROR(server->Bind());
  MR_RETURN_IF_ERROR(server->StartHttp());
  // The page's address first: whoever waits for addr_file may then read it. Not synced: an
  // address is void once this process is gone, so a power cut has nothing to lose.
  if (!options.http_addr_file.empty() && server->http_address()) {
    MR_RETURN_IF_ERROR(WriteFileAtomicallyUnsynced(options.http_addr_file, server->http_address()->ToString() + "\n"));
  }
  if (!options.addr_file.empty()) {
    MR_RETURN_IF_ERROR(WriteFileAtomicallyUnsynced(options.addr_file, server->address().ToString() + "\n"));
  }
  return std::unique_ptr<MasterServer>(std::move(server));
}

}  // namespace mr::master
