#include "shuffle/net/output_client.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/crc32c.h"
#include "common/units.h"
#include "mr.pb.h"
#include "shuffle/net/data_server_link.h"
#include "shuffle/net/fetcher.h"

namespace mr::shuffle {

namespace {


// Test seam (tests/cluster/netns_output_test.cc; docs/multi-host.md "Outputs"): with
// MR_TEST_CUT_OUTPUT_PUSH=TEXT in the environment, a push to a path containing TEXT sends
// its first range's frame and half of its bytes, then closes the connection, as a link cut
// mid-transfer would. Unset, it costs one getenv per push.
bool CutPush(const std::string& path) {
  const char* text = std::getenv("MR_TEST_CUT_OUTPUT_PUSH");
  return text != nullptr && *text != '\0' && path.find(text) != std::string::npos;
}

// Reads a local file range by range for PutFile.
class FileRanges {
 public:
  explicit FileRanges(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  bool ok() const { return fd_.valid(); }
  // The next range (empty at the end of the file); IoError on a read error.
  Result<std::string_view> Next(const std::string& path) {
    buf_.resize(kMaxOutputWriteBytes);
    size_t n = 0;
    while (n < buf_.size()) {
      const ssize_t r = ::read(fd_.get(), buf_.data() + n, buf_.size() - n);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) return Status::IoError("cannot read " + path + ": " + std::strerror(errno));
      if (r == 0) break;
      n += static_cast<size_t>(r);
    }
    return std::string_view(buf_.data(), n);
  }

 private:
  netio::UniqueFd fd_;
  std::string buf_;
};

}  // namespace

Result<std::unique_ptr<RemoteOutputs>> RemoteOutputs::Create(const std::string& server, auth::ClusterToken token,
                                                           double timeout_seconds) {
  MR_ASSIGN_OR_RETURN(HostPort hp, DataServerLink::ParseServer(server));
  return std::unique_ptr<RemoteOutputs>(new RemoteOutputs(server, std::move(hp.host), hp.port, std::move(token), timeout_seconds));
}

RemoteOutputs::RemoteOutputs(std::string server, std::string host, uint16_t port, auth::ClusterToken token, double timeout)
    : link_(std::move(server), std::move(host), port, std::move(token), timeout) {}

Result<proto::FetchReply> RemoteOutputs::CallOn(int sock, const proto::OutputRequest& req, const std::string& proof,
                                                std::string_view payload, bool* got_reply) const {
  *got_reply = false;
  proto::FetchRequest frame_req;
  *frame_req.mutable_output() = req;
  if (!proof.empty()) frame_req.set_auth_proof(proof);
  const bool cut = req.op() == proto::OutputRequest::WRITE && !payload.empty() && CutPush(req.path());
  MR_RETURN_IF_ERROR(netio::WriteFrameFd(sock, frame_req.SerializeAsString(), link_.timeout(), payload.empty() ? 0 : MSG_MORE));
  if (cut) {
    (void)netio::WriteFull(sock, payload.data(), payload.size() / 2, link_.timeout());
    ::shutdown(sock, SHUT_RDWR);
    return Status::NetworkError("the push of " + req.path() + " was cut (MR_TEST_CUT_OUTPUT_PUSH)");
  }
  MR_RETURN_IF_ERROR(netio::WriteFull(sock, payload.data(), payload.size(), link_.timeout()));
  MR_ASSIGN_OR_RETURN(std::string frame, netio::ReadFrameFd(sock, 1u << 20, link_.timeout(), link_.timeout()));
  *got_reply = true;
  proto::FetchReply reply;
  if (!reply.ParseFromString(frame)) return Status::ProtocolError("malformed FetchReply");
  return reply;
}

Result<proto::FetchReply> RemoteOutputs::Call(const proto::OutputRequest& req, std::string_view payload) const {
  return link_.Call(
      [&](int sock, const std::string& proof, bool* got_reply) { return CallOn(sock, req, proof, payload, got_reply); },
      /*may_retry=*/!CutPush(req.path()));
}

Status RemoteOutputs::Simple(int op, const std::string& path, const std::string& to) const {
  proto::OutputRequest req;
  req.set_op(static_cast<proto::OutputRequest::Op>(op));
  req.set_path(path);
  req.set_to(to);
  return Call(req, {}).status();
}

Result<jobs::OutputState> RemoteOutputs::State(const std::string& dir) const {
  proto::OutputRequest req;
  req.set_op(proto::OutputRequest::STATE);
  req.set_path(dir);
  MR_ASSIGN_OR_RETURN(proto::FetchReply reply, Call(req, {}));
  if (reply.output_state() > static_cast<uint32_t>(jobs::OutputState::kTaken)) {
    return Status::ProtocolError("data server " + link_.server() + ": unknown output state");
  }
  return static_cast<jobs::OutputState>(reply.output_state());
}

Status RemoteOutputs::MakeDirs(const std::string& dir) const { return Simple(proto::OutputRequest::MAKE_DIRS, dir); }

Status RemoteOutputs::Rename(const std::string& from, const std::string& to) const {
  return Simple(proto::OutputRequest::RENAME, from, to);
}

Status RemoteOutputs::RemoveAll(const std::string& path) const { return Simple(proto::OutputRequest::REMOVE_ALL, path); }

Status RemoteOutputs::Put(const std::string& path, std::string_view contents) const {
  uint64_t at = 0;
  do {  // an empty file is one empty WRITE: it creates PATH.partial
    const std::string_view range = contents.substr(at, kMaxOutputWriteBytes);
    proto::OutputRequest req;
    req.set_op(proto::OutputRequest::WRITE);
    req.set_path(path);
    req.set_offset(at);
    req.set_length(range.size());
    req.set_crc32c(crc32c::Value(range));
    MR_RETURN_IF_ERROR(Call(req, range).status());
    at += range.size();
  } while (at < contents.size());
  proto::OutputRequest fin;
  fin.set_op(proto::OutputRequest::FINISH);
  fin.set_path(path);
  fin.set_size(contents.size());
  fin.set_crc32c(crc32c::Value(contents));
  return Call(fin, {}).status();
}

Status RemoteOutputs::PutFile(const std::string& local, const std::string& path) const {
  FileRanges file(local);
  if (!file.ok()) return Status::IoError("cannot open " + local + ": " + std::strerror(errno));
  uint64_t at = 0;
  uint32_t crc = 0;
  for (;;) {
    MR_ASSIGN_OR_RETURN(std::string_view range, file.Next(local));
    if (range.empty() && at > 0) break;
    proto::OutputRequest req;
    req.set_op(proto::OutputRequest::WRITE);
    req.set_path(path);
    req.set_offset(at);
    req.set_length(range.size());
    req.set_crc32c(crc32c::Value(range));
    MR_RETURN_IF_ERROR(Call(req, range).status());
    crc = crc32c::Extend(crc, range.data(), range.size());
    at += range.size();
    if (range.size() < kMaxOutputWriteBytes) break;
  }
  proto::OutputRequest fin;
  fin.set_op(proto::OutputRequest::FINISH);
  fin.set_path(path);
  fin.set_size(at);
  fin.set_crc32c(crc);
  return Call(fin, {}).status();
}

}  // namespace mr::shuffle
