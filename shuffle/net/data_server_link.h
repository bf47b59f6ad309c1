// The connections to one data server (`mr data-server`), shared by RemoteInputs and
// RemoteOutputs: up to four idle connections kept for reuse, a fresh one authenticated with
// the cluster token (AuthenticateToServer), and one retry on a fresh connection when an idle
// one turns out closed by the server. Thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "common/auth.h"
#include "common/status.h"
#include "shuffle/net/net_io.h"

namespace mr::proto {
class FetchReply;
}  // namespace mr::proto

namespace mr::shuffle {

// A data server's error reply as a Status: its code (PermissionDenied also from the message's
// prefix), ProtocolError if it names none.
Status DataServerReplyError(const proto::FetchReply& reply);

class DataServerLink {
 public:
  // server: "HOST:PORT" as the user gave it (for messages); host and port: its parts.
  DataServerLink(std::string server, std::string host, uint16_t port, auth::ClusterToken token, double timeout);

  // Writes one request on `sock` (with `proof`, the token's proof on a fresh connection, else
  // "") and reads its reply; *got_reply says whether a reply frame arrived.
  using Exchange = std::function<Result<proto::FetchReply>(int sock, const std::string& proof, bool* got_reply)>;
  // One request: on an idle connection if there is one, else a fresh one; again on a fresh one
  // if the idle one failed with NetworkError before any reply and may_retry (a request that
  // must not be sent twice says false). Errors: the link's, in context "data server S"; the
  // server's error reply as DataServerReplyError.
  Result<proto::FetchReply> Call(const Exchange& exchange, bool may_retry = true) const;

  const std::string& server() const { return server_; }
  const std::string& host() const { return host_; }
  double timeout() const { return timeout_; }

 private:
  const std::string server_, host_;
  const uint16_t port_;
  const auth::ClusterToken token_;
  const double timeout_;
  mutable std::mutex mu_;
  mutable std::vector<netio::UniqueFd> idle_;  // guarded by mu_
};

}  // namespace mr::shuffle
