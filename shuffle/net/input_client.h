// RemoteInputs: a jobs::InputSource whose files live on another host, read from that
// host's data server (`mr data-server`, a ShuffleServer with exported input directories;
// docs/multi-host.md) over the shuffle's connections: the same framing, the same cluster
// token handshake (AuthenticateToServer), the same CRC32C check of every byte range as a
// fetched partition gets. Resolve, List and Read are the server's local source's answers
// for paths on its host; List names the server as each file's host, so the splits a master
// cuts from them name it too (jobs::Split::host). Read fetches the range into memory (the
// split reader asks for windows of 4 MiB; a longer range is fetched kMaxInputReadBytes at a
// time). Errors: the server's status code with its message; NetworkError for the link;
// DataLoss when bytes fail their checksum. Each keeps up to four idle connections.
// Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/auth.h"
#include "common/status.h"
#include "jobs/input_source.h"
#include "shuffle/net/data_server_link.h"
#include "shuffle/net/net_io.h"

namespace mr::proto {
class FetchReply;
class InputRequest;
}  // namespace mr::proto

namespace mr::shuffle {

// The most bytes one READ reply carries (the server caps a longer request).
inline constexpr uint64_t kMaxInputReadBytes = 16u << 20;

class RemoteInputs final : public jobs::InputSource {
 public:
  // server: "HOST:PORT". InvalidArgument if it does not parse.
  static Result<std::unique_ptr<RemoteInputs>> Create(const std::string& server, auth::ClusterToken token,
                                                      double timeout_seconds = 30);

  Result<std::vector<std::string>> Resolve(const std::vector<std::string>& args, bool recursive) const override;
  Result<std::vector<jobs::InputFile>> List(const std::vector<std::string>& inputs) const override;
  Result<std::unique_ptr<jobs::InputBytes>> Read(const std::string& path, uint64_t offset,
                                                 uint64_t length) const override;

  const std::string& server() const { return link_.server(); }
  // Payload bytes received by Read so far (for the local/remote share of a job's reads).
  uint64_t bytes_read() const;

 private:
  RemoteInputs(std::string server, std::string host, uint16_t port, auth::ClusterToken token, double timeout);
  // One request and its reply frame; *payload receives the READ bytes that follow it.
  Result<proto::FetchReply> Call(const proto::InputRequest& req, std::string* payload) const;
  Result<proto::FetchReply> CallOn(int sock, const proto::InputRequest& req, const std::string& proof,
                                   std::string* payload, bool* got_reply) const;

  const DataServerLink link_;  // the server's name and the connections (pooled, authenticated)
  mutable std::mutex mu_;
  mutable uint64_t bytes_read_ = 0;  // guarded by mu_
};

// One RemoteInputs per data server (DataServerClients).
using RemoteInputsCache = DataServerClients<RemoteInputs>;

}  // namespace mr::shuffle
