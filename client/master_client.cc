#include "client/master_client.h"

#include <algorithm>

#include <asio/connect.hpp>

#include "common/clock.h"
#include "common/framing.h"
#include "common/version.h"

namespace mr::client {

Result<std::unique_ptr<MasterClient>> MasterClient::Connect(const HostPort& master, const std::string& role,
                                                            const auth::ClusterToken& token, double timeout_seconds) {
  std::unique_ptr<MasterClient> c(new MasterClient());
  c->address_ = master.ToString();
  asio::error_code ec;
  asio::ip::tcp::resolver resolver(c->io_);
  auto endpoints = resolver.resolve(master.host, std::to_string(master.port), ec);
  if (ec) return Status::NetworkError("cannot resolve master " + c->address_ + ": " + ec.message());
  double deadline = MonotonicSeconds() + timeout_seconds;
  for (;;) {
    asio::connect(c->socket_, endpoints, ec);
    if (!ec || MonotonicSeconds() >= deadline || ec != asio::error::connection_refused) break;
    c->socket_ = asio::ip::tcp::socket(c->io_);
    struct timespec ts{0, 100 * 1000 * 1000};
    nanosleep(&ts, nullptr);  // master may still be starting
  }
  if (ec) return Status::NetworkError("master " + c->address_ + " unreachable: " + ec.message());
  c->socket_.set_option(asio::ip::tcp::no_delay(true), ec);
  MR_RETURN_IF_ERROR(c->Handshake(role, token));
  return c;
}

Status MasterClient::Handshake(const std::string& role, const auth::ClusterToken& token) {
  proto::Envelope hello;
  hello.mutable_hello()->set_protocol_version(kProtocolVersion);
  hello.mutable_hello()->set_role(role);
  hello.mutable_hello()->set_software(kSoftwareVersion);
  std::string nonce;
  if (token.enabled()) {
    MR_ASSIGN_OR_RETURN(nonce, auth::RandomBytes(auth::kNonceBytes));
    hello.mutable_hello()->set_nonce(nonce);
  }
  double t0 = SystemClock::Get()->Now();
  MR_ASSIGN_OR_RETURN(proto::Envelope reply, Call(hello));
  double t1 = SystemClock::Get()->Now();
  if (!reply.has_hello_reply()) return Status::ProtocolError("master " + address_ + " sent no handshake reply");
  const proto::HelloReply& r = reply.hello_reply();
  if (!r.accepted()) return Status::ProtocolError("master " + address_ + " refused the connection: " + r.error());
  clock_offset_ = r.master_time() - (t0 + t1) / 2;
  features_.assign(r.features().begin(), r.features().end());
  return Authenticate(r, role, nonce, token);
}

Status MasterClient::Authenticate(const proto::HelloReply& r, const std::string& role, const std::string& our_nonce,
                                  const auth::ClusterToken& token) {
  if (token.enabled()) {
    // Checked before answering: a worker must not take work from an impostor master.
    if (!r.auth_required()) {
      return Status::PermissionDenied("master " + address_ + " runs without a cluster token, but this " + role +
                                      " was given one: start the master with the same --token-file");
    }
    if (!token.Verify(our_nonce, auth::kRoleMaster, kProtocolVersion, r.proof())) {
      // Different tokens: neither side can tell which one is wrong. An empty answer lets
      // the master log the refusal too; nothing that depends on our token is sent.
      proto::Envelope empty;
      empty.mutable_auth();
      (void)Call(empty);
      return Status::PermissionDenied(auth::kAuthFailedMessage);
    }
  } else if (!r.auth_required()) {
    return Status::Ok();
  }
  proto::Envelope answer;
  // Without a token the proof stays empty: the master refuses it with the one-line message.
  if (token.enabled() && r.nonce().size() == auth::kNonceBytes) {
    answer.mutable_auth()->set_proof(token.Prove(r.nonce(), role, kProtocolVersion));
  } else {
    answer.mutable_auth();
  }
  MR_ASSIGN_OR_RETURN(proto::Envelope result, Call(answer));
  if (!result.has_auth_result() || !result.auth_result().ok()) {
    return Status::ProtocolError("master " + address_ + " sent no authentication result");
  }
  return Status::Ok();
}

bool MasterClient::HasFeature(std::string_view feature) const {
  return std::find(features_.begin(), features_.end(), feature) != features_.end();
}

Result<proto::Envelope> MasterClient::Call(const proto::Envelope& request) {
  MR_RETURN_IF_ERROR(WriteFrame(socket_, request.SerializeAsString()).WithContext("master " + address_));
  auto frame = ReadFrame(socket_);
  if (!frame.ok()) return frame.status().WithContext("master " + address_);
  proto::Envelope reply;
  if (!reply.ParseFromString(*frame)) return Status::ProtocolError("malformed reply from master " + address_);
  if (reply.has_error()) {
    uint32_t code = reply.error().code();
    auto sc = code <= static_cast<uint32_t>(StatusCode::kDataLoss) ? static_cast<StatusCode>(code) : StatusCode::kInternal;
    return Status(sc, reply.error().message());
  }
  return reply;
}

}  // namespace mr::client
