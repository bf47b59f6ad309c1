#include "master/http_server.h"

#include <array>
#include <atomic>
#include <cctype>
#include <chrono>
#include <optional>
#include <thread>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "web/pages.h"
#include "trace/reader.h"

namespace mr::master {

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

constexpr size_t kMaxRequestBytes = 16 * 1024;  // headers and body, each
constexpr size_t kMaxDrainBytes = 1 << 20;
constexpr auto kIdleTimeout = std::chrono::seconds(15);

std::string JsonError(const std::string& message) { return nlohmann::json{{"error", message}}.dump(); }

int HttpCodeFor(const Status& st) {
  switch (st.code()) {
    case StatusCode::kNotFound: return 404;
    case StatusCode::kInvalidArgument: return 400;
    case StatusCode::kUnavailable: return 503;
    default: return 500;
  }
}

bool ValidJobId(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  }
  return true;
}

Result<nlohmann::json> GetJson(StatusProvider& p, const std::string& path) {
  MR_ASSIGN_OR_RETURN(std::string body, p.Get(path));
  nlohmann::json j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::Internal("status provider returned bad JSON for " + path);
  return j;
}

std::string ClusterPage(StatusProvider& p, int* status) {
  auto cluster = GetJson(p, "/api/cluster");
  auto workers = GetJson(p, "/api/workers");
  auto jobs = GetJson(p, "/api/jobs");
  for (const Status* st : {&cluster.status(), &workers.status(), &jobs.status()}) {
    if (st->ok()) continue;
    *status = 503;
    return web::ErrorPageHtml(503, "the master did not answer: " + st->ToString());
  }
  double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  *status = 200;
  return web::ClusterPageHtml(*cluster, *workers, *jobs, now);
}

std::string JobPage(StatusProvider& p, const std::string& id, int* status) {
  auto job = GetJson(p, "/api/jobs/" + id);
  if (!job.ok()) {
    *status = HttpCodeFor(job.status());
    return web::ErrorPageHtml(*status, job.status().code() == StatusCode::kNotFound
                                           ? "no job '" + id + "'"
                                           : job.status().ToString());
  }
  std::vector<trace::Event> trace;
  if (auto text = p.Get("/api/jobs/" + id + "/trace"); text.ok()) {
    if (auto events = trace::ParseTraceArray(*text); events.ok()) trace = std::move(*events);
  }
  double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  *status = 200;
  return web::JobPageHtml(*job, trace, now);
}

}  // namespace

std::string RouteRequest(StatusProvider& provider, std::string_view target, int* status, std::string* content_type) {
  std::string path(target.substr(0, target.find('?')));
  *content_type = "text/html; charset=utf-8";
  if (path == "/" || path == "/index.html") return ClusterPage(provider, status);
  if (path.rfind("/jobs/", 0) == 0) {
    std::string id = path.substr(6);
    if (!id.empty() && id.back() == '/') id.pop_back();
    if (ValidJobId(id)) return JobPage(provider, id, status);
  }
  if (path.rfind("/api/", 0) == 0) {
    *content_type = "application/json";
    auto body = provider.Get(path);
    if (!body.ok()) {
      *status = HttpCodeFor(body.status());
      return JsonError(body.status().message());
    }
    *status = 200;
    return std::move(*body);
  }
  *status = 404;
  return web::ErrorPageHtml(404, "no page at " + path);
}

// One connection: read a request, answer it, repeat while keep-alive.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, StatusProvider* provider) : stream_(std::move(socket)), provider_(provider) {}

  void Read() {
    parser_.emplace();
    parser_->header_limit(kMaxRequestBytes);
    parser_->body_limit(kMaxRequestBytes);
    stream_.expires_after(kIdleTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) { self->OnRead(ec); });
  }

  void Close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
    stream_.socket().close(ec);
  }

 private:
  void OnRead(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == net::error::operation_aborted) {
      return Close();
    }
    if (ec == http::error::body_limit || ec == http::error::header_limit || ec == http::error::buffer_overflow) {
      return Reply(413, "text/plain", "request too large\n", false);
    }
    if (ec) return Reply(400, "text/plain", "bad request: " + ec.message() + "\n", false);
    const auto& req = parser_->get();
    if (req.method() != http::verb::get) {
      return Reply(405, "application/json", JsonError("only GET is supported"), false);
    }
    int status = 500;
    std::string type;
    std::string body = RouteRequest(*provider_, std::string_view(req.target().data(), req.target().size()), &status,
                                    &type);
    Reply(status, type, std::move(body), req.keep_alive());
  }

  void Reply(int status, const std::string& type, std::string body, bool keep_alive) {
    auto res = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(status), 11);
    res->set(http::field::server, "mrlab");
    res->set(http::field::content_type, type);
    res->set(http::field::cache_control, "no-store");
    if (status == 405) res->set(http::field::allow, "GET");
    res->keep_alive(keep_alive);
    res->body() = std::move(body);
    res->prepare_payload();
    stream_.expires_after(kIdleTimeout);
    http::async_write(stream_, *res, [self = shared_from_this(), res, keep_alive](beast::error_code ec, size_t) {
      if (ec) return self->Close();
      if (!keep_alive) return self->Linger();
      self->Read();
    });
  }

  // Half-closes and discards what the client still sends (bounded), so that
  // closing with unread data does not reset the connection before the client
  // has read our reply (e.g. the 413 to an oversized request).
  void Linger() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.expires_after(std::chrono::seconds(2));
    Drain(0);
  }

  void Drain(size_t drained) {
    if (drained > kMaxDrainBytes) return Close();
    stream_.async_read_some(net::buffer(scratch_),
                            [self = shared_from_this(), drained](beast::error_code ec, size_t n) {
                              if (ec) return self->Close();
                              self->Drain(drained + n);
                            });
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::array<char, 4096> scratch_;
  std::optional<http::request_parser<http::string_body>> parser_;
  StatusProvider* provider_;
};

class HttpServer::Impl {
 public:
  explicit Impl(StatusProvider* provider) : provider_(provider) {}

  Status Bind(const HostPort& addr) {
    beast::error_code ec;
    tcp::resolver resolver(ioc_);
    auto results = resolver.resolve(addr.host, std::to_string(addr.port), tcp::resolver::passive, ec);
    if (ec || results.empty()) {
      return Status::NetworkError("cannot resolve http address " + addr.ToString() + ": " + ec.message());
    }
    tcp::endpoint ep = results.begin()->endpoint();
    if (acceptor_.open(ep.protocol(), ec); !ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(ep, ec);
    if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (ec) return Status::NetworkError("cannot listen on http address " + addr.ToString() + ": " + ec.message());
    bound_ = HostPort{acceptor_.local_endpoint().address().to_string(), acceptor_.local_endpoint().port()};
    return Status::Ok();
  }

  void Run() {
    Accept();
    thread_ = std::thread([this] { ioc_.run(); });
  }

  void Stop() {
    if (stopped_.exchange(true)) return;
    ioc_.stop();
    if (thread_.joinable()) thread_.join();
    // The loop has stopped, so nothing else touches these now.
    beast::error_code ec;
    acceptor_.close(ec);
    for (auto& w : sessions_) {
      if (auto s = w.lock()) s->Close();
    }
    sessions_.clear();
  }

  HostPort bound() const { return bound_; }

 private:
  void Accept() {
    acceptor_.async_accept(ioc_, [this](beast::error_code ec, tcp::socket socket) {
      if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
      if (!ec) {
        auto s = std::make_shared<Session>(std::move(socket), provider_);
        std::erase_if(sessions_, [](const std::weak_ptr<Session>& w) { return w.expired(); });
        sessions_.push_back(s);
        s->Read();
      }
      Accept();
    });
  }

  StatusProvider* provider_;
  net::io_context ioc_{1};
  tcp::acceptor acceptor_{ioc_};
  HostPort bound_;
  std::thread thread_;
  std::atomic<bool> stopped_{false};
  std::vector<std::weak_ptr<Session>> sessions_;  // touched only on the loop thread (or after it stopped)
};

Result<std::unique_ptr<HttpServer>> HttpServer::Start(const HostPort& addr, StatusProvider* provider) {
  if (provider == nullptr) return Status::InvalidArgument("HttpServer needs a status provider");
  auto impl = std::make_unique<Impl>(provider);
  MR_RETURN_IF_ERROR(impl->Bind(addr));
  impl->Run();
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl)));
}

HttpServer::HttpServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HttpServer::~HttpServer() { Stop(); }
HostPort HttpServer::address() const { return impl_->bound(); }
void HttpServer::Stop() { impl_->Stop(); }

}  // namespace mr::master
