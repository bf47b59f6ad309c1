#include "shuffle/net/input_client.h"

#include <algorithm>

#include "common/crc32c.h"
#include "common/units.h"
#include "mr.pb.h"
#include "shuffle/net/data_server_link.h"
#include "shuffle/net/fetcher.h"

namespace mr::shuffle {

namespace {

// A reply frame may list many files.
constexpr uint32_t kMaxInputReplyBytes = 16u << 20;

class StringBytes final : public jobs::InputBytes {
 public:
  explicit StringBytes(std::string bytes) : bytes_(std::move(bytes)) {}
  std::string_view data() const override { return bytes_; }

 private:
  std::string bytes_;
};

// An input request's refusal carries its status code; the handshake's refusal (shared with
// the shuffle, which predates error_code) only the text "PermissionDenied: ...".

std::string Hex(uint32_t v) {
  char b[11];
  std::snprintf(b, sizeof(b), "0x%08x", v);
  return b;
}

}  // namespace

Result<std::unique_ptr<RemoteInputs>> RemoteInputs::Create(const std::string& server, auth::ClusterToken token,
                                                           double timeout_seconds) {
  MR_ASSIGN_OR_RETURN(HostPort hp, DataServerLink::ParseServer(server));
  return std::unique_ptr<RemoteInputs>(new RemoteInputs(server, std::move(hp.host), hp.port, std::move(token), timeout_seconds));
}

RemoteInputs::RemoteInputs(std::string server, std::string host, uint16_t port, auth::ClusterToken token, double timeout)
    : link_(std::move(server), std::move(host), port, std::move(token), timeout) {}

uint64_t RemoteInputs::bytes_read() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_read_;
}

Result<proto::FetchReply> RemoteInputs::CallOn(int sock, const proto::InputRequest& req, const std::string& proof,
                                               std::string* payload, bool* got_reply) const {
  *got_reply = false;
  proto::FetchRequest frame_req;
  *frame_req.mutable_input() = req;
  if (!proof.empty()) frame_req.set_auth_proof(proof);
  MR_RETURN_IF_ERROR(netio::WriteFrameFd(sock, frame_req.SerializeAsString(), link_.timeout()));
  MR_ASSIGN_OR_RETURN(std::string frame, netio::ReadFrameFd(sock, kMaxInputReplyBytes, link_.timeout(), link_.timeout()));
  *got_reply = true;
  proto::FetchReply reply;
  if (!reply.ParseFromString(frame)) return Status::ProtocolError("malformed FetchReply");
  if (!reply.ok() || req.op() != proto::InputRequest::READ) return reply;
  if (!reply.has_crc32c()) return Status::ProtocolError("input bytes without a crc32c");
  if (reply.length() > kMaxInputReadBytes) return Status::ProtocolError("input reply longer than allowed");
  payload->resize(reply.length());
  MR_RETURN_IF_ERROR(netio::ReadFull(sock, payload->data(), payload->size(), link_.timeout()));
  const uint32_t crc = crc32c::Value(*payload);
  if (crc != reply.crc32c()) {
    return Status::DataLoss("input bytes failed their checksum: expected crc32c " + Hex(reply.crc32c()) + ", got " +
                            Hex(crc));
  }
  return reply;
}

Result<proto::FetchReply> RemoteInputs::Call(const proto::InputRequest& req, std::string* payload) const {
  return link_.Call(
      [&](int sock, const std::string& proof, bool* got_reply) { return CallOn(sock, req, proof, payload, got_reply); });
}

Result<std::vector<std::string>> RemoteInputs::Resolve(const std::vector<std::string>& args, bool recursive) const {
  proto::InputRequest req;
  req.set_op(proto::InputRequest::RESOLVE);
  for (const std::string& a : args) req.add_paths(a);
  req.set_recursive(recursive);
  MR_ASSIGN_OR_RETURN(proto::FetchReply reply, Call(req, nullptr));
  return std::vector<std::string>(reply.resolved().begin(), reply.resolved().end());
}

Result<std::vector<jobs::InputFile>> RemoteInputs::List(const std::vector<std::string>& inputs) const {
  proto::InputRequest req;
  req.set_op(proto::InputRequest::LIST);
  for (const std::string& in : inputs) req.add_paths(in);
  MR_ASSIGN_OR_RETURN(proto::FetchReply reply, Call(req, nullptr));
  std::vector<jobs::InputFile> files;
  files.reserve(reply.files_size());
  for (const proto::InputFileEntry& e : reply.files()) files.push_back(jobs::InputFile{e.path(), e.size(), link_.server()});
  return files;
}

Result<std::unique_ptr<jobs::InputBytes>> RemoteInputs::Read(const std::string& path, uint64_t offset,
                                                             uint64_t length) const {
  std::string all;
  uint64_t at = offset;
  do {  // length 0 still asks once: the server opens the file (NotFound for a missing one)
    proto::InputRequest req;
    req.set_op(proto::InputRequest::READ);
    req.add_paths(path);
    req.set_offset(at);
    const uint64_t want = std::min(length - (at - offset), kMaxInputReadBytes);
    req.set_length(want);
    std::string piece;
    MR_ASSIGN_OR_RETURN(proto::FetchReply reply, Call(req, &piece));
    {
      std::lock_guard<std::mutex> lock(mu_);
      bytes_read_ += piece.size();
    }
    at += piece.size();
    if (all.empty()) {
      all = std::move(piece);
    } else {
      all += piece;
    }
    if (reply.length() < want) break;  // the end of the file
  } while (at - offset < length);
  return std::unique_ptr<jobs::InputBytes>(std::make_unique<StringBytes>(std::move(all)));
}

}  // namespace mr::shuffle
