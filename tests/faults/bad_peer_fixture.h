// The hostile-peer suite's fixture (bad_peer_test.cc, bad_peer_messages_test.cc): a real
// master and worker started once for the suite as child processes on loopback, with a
// cluster token, and a good job whose maps wait on a gate file that only the suite's
// tear-down creates, so every probe overlaps it in whatever order gtest runs them; the
// tear-down then checks the job's output. RawPeer speaks raw bytes to the master.
#pragma once

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "common/auth.h"
#include "common/clock.h"
#include "common/file_util.h"
#include "common/framing.h"
#include "common/version.h"
#include "mr.pb.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::badpeer {

inline constexpr double kWait = 5.0;

// A child process whose stdout+stderr go to a log file; SIGTERM (then SIGKILL) on destruction.
class Child {
 public:
  Child(const std::vector<std::string>& args, const std::string& log);
  ~Child();
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  bool running() const;

 private:
  pid_t pid_ = -1;
};

// A peer speaking raw bytes to the master, to send what no real client would.
class RawPeer {
 public:
  explicit RawPeer(uint16_t port) {
    fd_ = testing::ConnectLoopback(port, &connected_);
  }
  ~RawPeer() { ::close(fd_); }
  bool connected() const { return connected_; }

  void Send(std::string_view bytes) {
    // A closed peer may reset the connection under us; the test then sees the close.
    (void)!::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  }
  void SendEnvelope(const proto::Envelope& e) { Send(EncodeFrame(e.SerializeAsString())); }
  void ShutdownWrite() { ::shutdown(fd_, SHUT_WR); }

  // The next frame within timeout; nullopt if the master closed (closed() is then true) or
  // said nothing.
  std::optional<proto::Envelope> Read(double timeout = kWait) {
    double deadline = MonotonicSeconds() + timeout;
    for (;;) {
      if (buf_.size() >= kFrameHeaderBytes) {
        uint32_t len = DecodeFrameLength(reinterpret_cast<const unsigned char*>(buf_.data()));
        if (buf_.size() >= kFrameHeaderBytes + len) {
          proto::Envelope e;
          bool ok = e.ParseFromString(buf_.substr(kFrameHeaderBytes, len));
          buf_.erase(0, kFrameHeaderBytes + len);
          if (ok) return e;
          ADD_FAILURE() << "master sent a malformed frame";
          return std::nullopt;
        }
      }
      if (!Fill(deadline)) return std::nullopt;
    }
  }
  // True if the master closes the connection within timeout without sending anything more.
  bool ClosedWithin(double timeout = kWait) {
    size_t before = buf_.size();
    double deadline = MonotonicSeconds() + timeout;
    while (!closed_ && Fill(deadline)) {
    }
    return closed_ && buf_.size() == before;
  }
  bool closed() const { return closed_; }

 private:
  bool Fill(double deadline) {
    double left = deadline - MonotonicSeconds();
    if (closed_ || left <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left * 1000) + 1) <= 0) return false;
    char tmp[65536];
    ssize_t n = ::recv(fd_, tmp, sizeof tmp, 0);
    if (n <= 0) {
      closed_ = true;  // EOF or reset: either way the master dropped us
      return false;
    }
    buf_.append(tmp, static_cast<size_t>(n));
    return true;
  }

  int fd_ = -1;
  bool connected_ = false;
  bool closed_ = false;
  std::string buf_;
};

inline proto::Envelope Hello(uint32_t version, const std::string& role, const std::string& nonce) {
  proto::Envelope e;
  e.mutable_hello()->set_protocol_version(version);
  e.mutable_hello()->set_role(role);
  e.mutable_hello()->set_software("bad-peer-test");
  e.mutable_hello()->set_nonce(nonce);
  return e;
}

class BadPeerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  static void CheckTheGoodJobFinishes();
  void SetUp() override { ASSERT_TRUE(setup_error_.empty()) << setup_error_; }

  static auth::ClusterToken Token() {
    return *auth::ClusterToken::FromString("bad-peer-cluster-secret");
  }

  // Hello + AuthResponse with `token` (none: empty proof). Returns the master's last reply.
  static std::optional<proto::Envelope> Authenticate(RawPeer& p, const std::string& role,
                                                     const auth::ClusterToken& token) {
    std::string nonce = *auth::RandomBytes(auth::kNonceBytes);
    p.SendEnvelope(Hello(kProtocolVersion, role, nonce));
    auto reply = p.Read();
    if (!reply || !reply->has_hello_reply() || !reply->hello_reply().auth_required()) {
      ADD_FAILURE() << "expected a HelloReply asking for authentication";
      return std::nullopt;
    }
    EXPECT_TRUE(
        Token().Verify(nonce, auth::kRoleMaster, kProtocolVersion, reply->hello_reply().proof()));
    proto::Envelope answer;
    answer.mutable_auth();
    if (token.enabled()) {
      answer.mutable_auth()->set_proof(
          token.Prove(reply->hello_reply().nonce(), role, kProtocolVersion));
    }
    p.SendEnvelope(answer);
    return p.Read();
  }
  // A connection past the handshake, as `role`.
  static std::unique_ptr<RawPeer> Ready(const std::string& role) {
    auto p = std::make_unique<RawPeer>(port_);
    EXPECT_TRUE(p->connected());
    auto r = Authenticate(*p, role, Token());
    EXPECT_TRUE(r && r->has_auth_result() && r->auth_result().ok())
        << (r ? r->DebugString() : "closed");
    return p;
  }
  // A worker registration with `map_slots` map slots and no reduce slot.
  static proto::Envelope Registration(uint32_t map_slots) {
    proto::Envelope reg;
    auto* r = reg.mutable_register_worker();
    r->set_host("127.0.0.1");
    r->set_shuffle_port(1);
    r->set_map_slots(map_slots);
    r->set_speed(1);
    r->set_work_dir("/nonexistent");
    return reg;
  }
  // A worker connection that registered (1 map slot, no reduce slot: never hosts a reducer).
  static std::unique_ptr<RawPeer> RegisteredWorker(uint32_t* id) {
    auto p = Ready("worker");
    p->SendEnvelope(Registration(1));
    auto reply = p->Read();
    EXPECT_TRUE(reply && reply->has_register_reply()) << (reply ? reply->DebugString() : "closed");
    *id = reply && reply->has_register_reply() ? reply->register_reply().worker_id() : 0;
    return p;
  }

  // The next thing the master does is refuse (an ErrorReply with `code` mentioning
  // `mention`, or just closing when `code` is nullopt) and close the connection.
  static void ExpectRefused(RawPeer& p, std::optional<StatusCode> code,
                            const std::string& mention) {
    auto reply = p.Read();
    if (code) {
      ASSERT_TRUE(reply.has_value()) << "no refusal before close (expected: " << mention << ")";
      ASSERT_TRUE(reply->has_error()) << reply->DebugString();
      EXPECT_EQ(reply->error().code(), static_cast<uint32_t>(*code)) << reply->error().message();
      EXPECT_NE(reply->error().message().find(mention), std::string::npos)
          << reply->error().message();
    } else {
      EXPECT_FALSE(reply.has_value()) << "unexpected reply " << reply->DebugString();
    }
    EXPECT_TRUE(p.closed() || p.ClosedWithin()) << "connection left open after: " << mention;
  }

  static std::string Master() {
    return " --master 127.0.0.1:" + std::to_string(port_) + " --token-file " + token_file_;
  }

  static std::unique_ptr<TempDir> tmp_;
  static std::unique_ptr<Child> master_, worker_;
  static std::string setup_error_;
  static std::string token_file_, input_, output_, gate_;
  static uint16_t port_, shuffle_port_;
  static uint32_t good_worker_id_;
  static uint64_t job_id_;
  static uint32_t job_maps_;
};

}  // namespace mr::badpeer
