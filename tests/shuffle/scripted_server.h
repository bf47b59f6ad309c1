// A scripted shuffle server for fetcher tests: listens on loopback, accepts one connection
// and hands every FetchRequest on it to `answer`, which writes what it likes (a reply, part
// of the bytes, nothing) and returns false to close. The test decides each step, so an
// interleaving of two fetches is reproduced exactly, without sleeps. No authentication.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>
#include <functional>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "common/crc32c.h"
#include "mr.pb.h"
#include "shuffle/net/net_io.h"
#include "shuffle/net/shuffle_server.h"

namespace mr::shuffle::testing {

class ScriptedServer {
 public:
  using Answer = std::function<bool(const proto::FetchRequest& request, int fd)>;

  explicit ScriptedServer(Answer answer) {
    listener_.Reset(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    EXPECT_EQ(::bind(listener_.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    EXPECT_EQ(::listen(listener_.get(), 4), 0);
    EXPECT_EQ(::getsockname(listener_.get(), reinterpret_cast<sockaddr*>(&addr), &len), 0);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this, answer = std::move(answer)] {
      netio::UniqueFd conn(::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC));
      if (!conn.valid()) return;
      for (;;) {
        auto frame = netio::ReadFrameFd(conn.get(), kMaxFetchRequestBytes, 30, 30);
        if (!frame.ok()) return;
        proto::FetchRequest request;
        if (!request.ParseFromString(*frame) || !answer(request, conn.get())) return;
      }
    });
  }
  ~ScriptedServer() {
    ::shutdown(listener_.get(), SHUT_RDWR);  // an accept never reached returns
    thread_.join();
  }
  uint16_t port() const { return port_; }

  // The reply header for `bytes` (ok, length, records, CRC32C), written to fd.
  static bool WriteHeader(int fd, const std::string& bytes, uint64_t records) {
    proto::FetchReply reply;
    reply.set_ok(true);
    reply.set_length(bytes.size());
    reply.set_records(records);
    reply.set_crc32c(crc32c::Value(bytes));
    return netio::WriteFrameFd(fd, reply.SerializeAsString(), 10).ok();
  }
  static bool WriteBytes(int fd, const std::string& bytes) {
    return netio::WriteFull(fd, bytes.data(), bytes.size(), 10).ok();
  }

 private:
  netio::UniqueFd listener_;
  uint16_t port_ = 0;
  std::thread thread_;
};

}  // namespace mr::shuffle::testing
