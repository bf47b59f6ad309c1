#include "shuffle/net/data_server_link.h"

#include <utility>

#include "mr.pb.h"
#include "shuffle/net/fetcher.h"

namespace mr::shuffle {

namespace {
constexpr size_t kMaxIdleConnections = 4;
}  // namespace

Status DataServerReplyError(const proto::FetchReply& reply) {
  const std::string& error = reply.error();
  const size_t colon = error.find(": ");
  const std::string message = colon == std::string::npos ? error : error.substr(colon + 2);
  int code = reply.error_code();
  if (code == 0 && error.rfind("PermissionDenied: ", 0) == 0) code = static_cast<int>(StatusCode::kPermissionDenied);
  if (code <= 0 || code > static_cast<int>(StatusCode::kDataLoss)) return Status::ProtocolError("data server refused: " + error);
  return Status(static_cast<StatusCode>(code), message);
}

Result<HostPort> DataServerLink::ParseServer(const std::string& server) {
  MR_ASSIGN_OR_RETURN(HostPort hp, ParseHostPort(server));
  if (hp.port == 0) return Status::InvalidArgument("data server " + server + ": port 0");
  return hp;
}

DataServerLink::DataServerLink(std::string server, std::string host, uint16_t port, auth::ClusterToken token,
                               double timeout)
    : server_(std::move(server)), host_(std::move(host)), port_(port), token_(std::move(token)), timeout_(timeout) {}

Result<proto::FetchReply> DataServerLink::Call(const Exchange& exchange, bool may_retry) const {
  netio::UniqueFd conn;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      conn = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  Result<proto::FetchReply> r = Status::Internal("unreachable");
  bool retry = true;
  if (conn.valid()) {
    bool got_reply = false;
    r = exchange(conn.get(), "", &got_reply);
    // Only a connection the server closed while idle is worth a second try.
    retry = may_retry && !r.ok() && !got_reply && r.status().code() == StatusCode::kNetworkError;
    if (!r.ok()) conn.Reset();
  }
  if (retry) {
    auto fresh = netio::ConnectTcp(host_, port_, timeout_);
    if (!fresh.ok()) return fresh.status().WithContext("data server " + server_);
    conn = std::move(fresh).value();
    std::string proof;
    if (token_.enabled()) {
      auto p = AuthenticateToServer(conn.get(), token_, timeout_);
      if (!p.ok()) return p.status().WithContext("data server " + server_);
      proof = std::move(p).value();
    }
    bool got_reply = false;
    r = exchange(conn.get(), proof, &got_reply);
    if (!r.ok()) conn.Reset();
  }
  if (!r.ok()) return r.status().WithContext("data server " + server_);
  if (!r->ok() && DataServerReplyError(*r).code() == StatusCode::kPermissionDenied) conn.Reset();  // the server closes
  if (conn.valid()) {
    std::lock_guard<std::mutex> lock(mu_);
    if (idle_.size() < kMaxIdleConnections) idle_.push_back(std::move(conn));
  }
  if (!r->ok()) return DataServerReplyError(*r);
  return r;
}

}  // namespace mr::shuffle
