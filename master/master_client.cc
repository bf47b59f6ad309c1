#include "master/master_client.h"

#include <asio/connect.hpp>

#include "common/clock.h"
#include "common/framing.h"
#include "common/version.h"

namespace mr::master {

Result<std::unique_ptr<MasterClient>> MasterClient::Connect(const HostPort& master, const std::string& role,
                                                            double timeout_seconds) {
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

  proto::Envelope hello;
  hello.mutable_hello()->set_protocol_version(kProtocolVersion);
  hello.mutable_hello()->set_role(role);
  hello.mutable_hello()->set_software(kSoftwareVersion);
  double t0 = SystemClock::Get()->Now();
  MR_ASSIGN_OR_RETURN(proto::Envelope reply, c->Call(hello));
  double t1 = SystemClock::Get()->Now();
  if (!reply.has_hello_reply()) return Status::ProtocolError("master " + c->address_ + " sent no handshake reply");
  if (!reply.hello_reply().accepted()) {
    return Status::ProtocolError("master " + c->address_ + " refused the connection: " + reply.hello_reply().error());
  }
  c->clock_offset_ = reply.hello_reply().master_time() - (t0 + t1) / 2;
  return c;
}

Result<proto::Envelope> MasterClient::Call(const proto::Envelope& request) {
  MR_RETURN_IF_ERROR(WriteFrame(socket_, request.SerializeAsString()).WithContext("master " + address_));
  auto frame = ReadFrame(socket_);
  if (!frame.ok()) return frame.status().WithContext("master " + address_);
  proto::Envelope reply;
  if (!reply.ParseFromString(*frame)) return Status::ProtocolError("malformed reply from master " + address_);
  if (reply.has_error()) {
    uint32_t code = reply.error().code();
    auto sc = code <= static_cast<uint32_t>(StatusCode::kInternal) ? static_cast<StatusCode>(code) : StatusCode::kInternal;
    return Status(sc, reply.error().message());
  }
  return reply;
}

}  // namespace mr::master
