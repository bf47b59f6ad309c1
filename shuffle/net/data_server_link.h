// The connections to one data server (`mr data-server`), shared by RemoteInputs and
// RemoteOutputs: up to four idle connections kept for reuse, a fresh one authenticated with
// the cluster token (AuthenticateToServer), and one retry on a fresh connection when an idle
// one turns out closed by the server. Thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/auth.h"
#include "common/status.h"
#include "common/units.h"
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

  // A data server's "HOST:PORT" parsed for the constructor; InvalidArgument if it does not
  // parse or names port 0.
  static Result<HostPort> ParseServer(const std::string& server);

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

// One client per data server ("HOST:PORT"), made on first use by
// `Client::Create(server, token)` and kept for the process's life (a daemon talks to the few
// data servers its jobs name): RemoteInputsCache and RemoteOutputsCache. For returns the
// same client for the same server every time; a server Create refuses (InvalidArgument if
// it does not parse) is not kept, so its error comes again. Thread-safe.
template <typename Client>
class DataServerClients {
 public:
  explicit DataServerClients(auth::ClusterToken token) : token_(std::move(token)) {}

  Result<const Client*> For(const std::string& server) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = clients_.find(server);
    if (it != clients_.end()) return static_cast<const Client*>(it->second.get());
    MR_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, Client::Create(server, token_));
    return static_cast<const Client*>(clients_.emplace(server, std::move(client)).first->second.get());
  }

 private:
  const auth::ClusterToken token_;
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<Client>> clients_;  // guarded by mu_
};

}  // namespace mr::shuffle
