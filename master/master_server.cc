#include "master/master_server.h"

#include <future>

#include <asio.hpp>

#include "common/file_util.h"
#include "common/framing.h"
#include "common/log.h"
#include "common/version.h"
#include "master/http_server.h"
#include "master/job_tracker.h"
#include "master/status_provider.h"
#include "mr.pb.h"

namespace mr::master {

namespace {

// One peer connection. Request/response: read a frame, answer it, read the next.
// Owned by shared_ptr while an async operation is in flight.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(asio::ip::tcp::socket socket, JobTracker* tracker, uint32_t heartbeat_ms)
      : socket_(std::move(socket)), tracker_(tracker), heartbeat_ms_(heartbeat_ms) {}

  void Start() { ReadHeader(); }

 private:
  void ReadHeader() {
    auto self = shared_from_this();
    asio::async_read(socket_, asio::buffer(header_), [this, self](asio::error_code ec, size_t) {
      if (ec) return;
      uint32_t len = DecodeFrameLength(header_.data());
      if (len > kDefaultMaxFrameBytes) {
        MR_LOG_WARN("closing connection: frame of {} bytes exceeds the maximum", len);
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
        MR_LOG_WARN("closing connection: malformed message");
        return;
      }
      proto::Envelope out;
      bool keep = Handle(in, &out);
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

  static void SetError(const Status& s, proto::Envelope* out) {
    auto* e = out->mutable_error();
    e->set_code(static_cast<uint32_t>(s.code()));
    e->set_message(s.message());
  }

  // Returns false when the connection should close after the reply.
  bool Handle(const proto::Envelope& in, proto::Envelope* out) {
    if (!greeted_) {
      if (!in.has_hello()) {
        SetError(Status::ProtocolError("expected Hello first"), out);
        return false;
      }
      auto* r = out->mutable_hello_reply();
      r->set_protocol_version(kProtocolVersion);
      r->set_master_time(SystemClock::Get()->Now());
      if (in.hello().protocol_version() != kProtocolVersion) {
        r->set_accepted(false);
        r->set_error("protocol version mismatch: peer speaks " + std::to_string(in.hello().protocol_version()) +
                     ", master speaks " + std::to_string(kProtocolVersion));
        MR_LOG_WARN("refused peer: {}", r->error());
        return false;
      }
      r->set_accepted(true);
      greeted_ = true;
      return true;
    }
    switch (in.msg_case()) {
      case proto::Envelope::kRegisterWorker: {
        auto r = tracker_->Register(in.register_worker());
        if (!r.ok()) {
          SetError(r.status(), out);
          return false;
        }
        *out->mutable_register_reply() = std::move(r).value();
        out->mutable_register_reply()->set_heartbeat_ms(heartbeat_ms_);
        return true;
      }
      case proto::Envelope::kHeartbeat: {
        auto r = tracker_->Heartbeat(in.heartbeat());
        if (!r.ok()) SetError(r.status(), out);
        else *out->mutable_heartbeat_reply() = std::move(r).value();
        return true;
      }
      case proto::Envelope::kSubmit: {
        auto r = tracker_->Submit(in.submit().spec());
        if (!r.ok()) SetError(r.status(), out);
        else out->mutable_submit_reply()->set_job_id(*r);
        return true;
      }
      case proto::Envelope::kStatus: {
        auto r = tracker_->GetStatus(in.status().job_id());
        if (!r.ok()) SetError(r.status(), out);
        else *out->mutable_status_reply() = std::move(r).value();
        return true;
      }
      default:
        SetError(Status::ProtocolError("unexpected message"), out);
        return false;
    }
  }

  asio::ip::tcp::socket socket_;
  JobTracker* tracker_;
  uint32_t heartbeat_ms_;
  bool greeted_ = false;
  std::array<unsigned char, kFrameHeaderBytes> header_{};
  std::string body_;
  std::string out_;
};

class MasterServerImpl final : public MasterServer, public StatusProvider {
 public:
  MasterServerImpl(const MasterOptions& o, std::unique_ptr<JobTracker> tracker)
      : options_(o), tracker_(std::move(tracker)), acceptor_(io_), signals_(io_, SIGINT, SIGTERM), tick_(io_) {}

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
    MR_LOG_INFO("master listening on {} (policy {})", address_.ToString(), tracker_->policy());
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
        std::make_shared<Session>(std::move(socket), tracker_.get(), options_.heartbeat_ms)->Start();
      }
      if (acceptor_.is_open()) Accept();
    });
  }

  MasterOptions options_;
  std::unique_ptr<JobTracker> tracker_;
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
  MR_RETURN_IF_ERROR(MakeDirs(JoinPath(options.state_dir, "traces")));
  MR_ASSIGN_OR_RETURN(auto scheduler, sched::CreateScheduler(options.policy, options.scheduler));
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
