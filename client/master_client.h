// MasterClient: a blocking connection to the master used by `mr submit`,
// `mr status`, `mr run` and the worker. Connect() performs the handshake, with the
// cluster-token challenge in both directions when either side has a token;
// Call() sends one request and returns the reply (an ErrorReply becomes a
// Status with the master's code and message). Not thread-safe.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>

#include "common/auth.h"
#include "common/status.h"
#include "common/units.h"
#include "mr.pb.h"

namespace mr::client {

class MasterClient {
 public:
  // Errors: NetworkError naming the address if unreachable; ProtocolError on a
  // version mismatch (message from the master); PermissionDenied with
  // auth::kAuthFailedMessage if the master refuses our token (or its absence), or
  // naming the master if it cannot prove `token` (a peer with a token never talks to a
  // master that does not share it).
  static Result<std::unique_ptr<MasterClient>> Connect(const HostPort& master, const std::string& role,
                                                       const auth::ClusterToken& token,
                                                       double timeout_seconds = 5.0);
  // Without a cluster token.
  static Result<std::unique_ptr<MasterClient>> Connect(const HostPort& master, const std::string& role,
                                                       double timeout_seconds = 5.0) {
    return Connect(master, role, auth::ClusterToken(), timeout_seconds);
  }
  Result<proto::Envelope> Call(const proto::Envelope& request);
  // Master clock minus local clock, estimated at the handshake.
  double clock_offset() const { return clock_offset_; }
  // True if the master listed `feature` at the handshake (HelloReply.features), e.g.
  // "wait_job": only then may the matching request be sent.
  bool HasFeature(std::string_view feature) const;

 private:
  MasterClient() : socket_(io_) {}
  Status Handshake(const std::string& role, const auth::ClusterToken& token);
  Status Authenticate(const proto::HelloReply& reply, const std::string& role, const std::string& our_nonce,
                      const auth::ClusterToken& token);
  asio::io_context io_;
  asio::ip::tcp::socket socket_;
  double clock_offset_ = 0;
  std::string address_;
  std::vector<std::string> features_;
};

}  // namespace mr::client
