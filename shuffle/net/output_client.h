// RemoteOutputs: a jobs::OutputStore whose directory lives on another host, reached through
// that host's data server (`mr data-server --export-output DIR`, a ShuffleServer with
// output_roots; docs/multi-host.md "Outputs") over the shuffle's connections: the same
// framing and cluster-token handshake as RemoteInputs. Put and PutFile push the bytes in
// ranges of at most kMaxOutputWriteBytes, each with its CRC32C, then FINISH with the size
// and the CRC32C of the whole file; the server writes PATH.partial and renames it to PATH
// only once it matches, so the file appears whole or not at all. Errors: the server's status
// code with its message; NetworkError for the link (a push cut mid-way leaves at most a
// PATH.partial, which the job's `_temporary` removal takes away). Thread-safe; keeps up to
// four idle connections.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "common/auth.h"
#include "common/status.h"
#include "jobs/output_store.h"
#include "shuffle/net/data_server_link.h"
#include "shuffle/net/net_io.h"

namespace mr::proto {
class FetchReply;
class OutputRequest;
}  // namespace mr::proto

namespace mr::shuffle {

// The most bytes one WRITE carries.
inline constexpr uint64_t kMaxOutputWriteBytes = 4u << 20;

class RemoteOutputs final : public jobs::OutputStore {
 public:
  // server: "HOST:PORT". InvalidArgument if it does not parse.
  static Result<std::unique_ptr<RemoteOutputs>> Create(const std::string& server, auth::ClusterToken token,
                                                       double timeout_seconds = 30);

  Result<jobs::OutputState> State(const std::string& dir) const override;
  Status MakeDirs(const std::string& dir) const override;
  Status Rename(const std::string& from, const std::string& to) const override;
  Status Put(const std::string& path, std::string_view contents) const override;
  Status PutFile(const std::string& local, const std::string& path) const override;
  Status RemoveAll(const std::string& path) const override;

  const std::string& server() const { return link_.server(); }

 private:
  RemoteOutputs(std::string server, std::string host, uint16_t port, auth::ClusterToken token, double timeout);
  // One request (with `payload` after its frame) and its reply.
  Result<proto::FetchReply> Call(const proto::OutputRequest& req, std::string_view payload) const;
  Result<proto::FetchReply> CallOn(int sock, const proto::OutputRequest& req, const std::string& proof,
                                   std::string_view payload, bool* got_reply) const;
  Status Simple(int op, const std::string& path, const std::string& to = "") const;

  const DataServerLink link_;  // the server's name and the connections (pooled, authenticated)
};

// One RemoteOutputs per data server (DataServerClients).
using RemoteOutputsCache = DataServerClients<RemoteOutputs>;

}  // namespace mr::shuffle
