#include "shuffle/net/task_log_client.h"

#include "common/crc32c.h"
#include "shuffle/net/fetcher.h"
#include "shuffle/net/shuffle_server.h"
#include "shuffle/task_log.h"

namespace mr::shuffle {

Result<std::unique_ptr<TaskLogClient>> TaskLogClient::Connect(const std::string& host, uint16_t port,
                                                              const auth::ClusterToken& token, double timeout) {
  const std::string peer = host + ":" + std::to_string(port);
  auto fd = netio::ConnectTcp(host, port, timeout);
  if (!fd.ok()) return fd.status().WithContext("worker " + peer);
  std::string proof;
  if (token.enabled()) {
    auto p = AuthenticateToServer(fd->get(), token, timeout);
    if (!p.ok()) return p.status().WithContext("worker " + peer);
    proof = std::move(p).value();
  }
  return std::unique_ptr<TaskLogClient>(new TaskLogClient(std::move(fd).value(), std::move(proof), peer, timeout));
}

Result<TaskLogPiece> TaskLogClient::Read(const proto::TaskLogRequest& request) {
  if (!fd_.valid()) return Status::NetworkError("worker " + peer_ + ": connection closed after an error");
  proto::FetchRequest req;
  *req.mutable_log() = request;
  if (req.log().max_bytes() == 0 || req.log().max_bytes() > kTaskLogChunkBytes) {
    req.mutable_log()->set_max_bytes(kTaskLogChunkBytes);
  }
  if (!proof_.empty()) req.set_auth_proof(std::exchange(proof_, std::string()));
  auto fail = [this](const Status& s) {
    fd_.Reset();  // the stream may be out of step: no further request on it
    return s.WithContext("worker " + peer_);
  };
  if (Status s = netio::WriteFrameFd(fd_.get(), req.SerializeAsString(), timeout_); !s.ok()) return fail(s);
  auto frame = netio::ReadFrameFd(fd_.get(), kMaxFetchRequestBytes, timeout_, timeout_);
  if (!frame.ok()) return fail(frame.status());
  proto::FetchReply reply;
  if (!reply.ParseFromString(*frame)) return fail(Status::ProtocolError("malformed FetchReply"));
  if (!reply.ok()) {
    Status err = ShuffleServerError(reply.error());
    if (err.code() == StatusCode::kPermissionDenied) fd_.Reset();  // the server closes
    return err.WithContext("worker " + peer_);
  }
  if (reply.length() > req.log().max_bytes()) {
    return fail(Status::ProtocolError("a task log reply longer than asked for"));
  }
  TaskLogPiece piece;
  piece.log_size = reply.log_size();
  piece.bytes.resize(static_cast<size_t>(reply.length()));
  if (Status s = netio::ReadFull(fd_.get(), piece.bytes.data(), piece.bytes.size(), timeout_); !s.ok()) return fail(s);
  if (crc32c::Value(piece.bytes) != reply.crc32c()) {
    return fail(Status::DataLoss("a task log piece failed its checksum"));
  }
  return piece;
}

}  // namespace mr::shuffle
