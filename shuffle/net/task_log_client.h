// TaskLogClient: reads a task attempt's log from the shuffle server of the worker that ran
// it (FetchRequest.log, docs/protocol.md "Task logs"; `mr logs`). One connection, kept for
// every piece asked on it, authenticated like a fetch when the cluster has a token. Each
// Read returns at most kTaskLogChunkBytes, checked against the CRC32C the server sends; a
// caller streams a log by reading on from offset + bytes until it reaches log_size. Every
// wait (connect, reply, bytes) is bounded by the timeout: a worker that does not answer is
// a NetworkError, never a hang. Not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "common/auth.h"
#include "common/status.h"
#include "mr.pb.h"
#include "shuffle/net/net_io.h"

namespace mr::shuffle {

struct TaskLogPiece {
  std::string bytes;      // from the offset asked for; empty at the end of the log
  uint64_t log_size = 0;  // the log's size when the server read it
};

class TaskLogClient {
 public:
  // NetworkError naming host:port if it cannot connect; PermissionDenied if the token
  // does not match the server's.
  static Result<std::unique_ptr<TaskLogClient>> Connect(const std::string& host, uint16_t port,
                                                        const auth::ClusterToken& token, double timeout_seconds);
  // NotFound when the worker has no log of that attempt (never ran it, or pruned it).
  Result<TaskLogPiece> Read(const proto::TaskLogRequest& request);

 private:
  TaskLogClient(netio::UniqueFd fd, std::string proof, std::string peer, double timeout)
      : fd_(std::move(fd)), proof_(std::move(proof)), peer_(std::move(peer)), timeout_(timeout) {}
  netio::UniqueFd fd_;
  std::string proof_;  // rides on the first request after the handshake
  const std::string peer_;
  const double timeout_;
};

}  // namespace mr::shuffle
