// Admission (issue 11, "no lock-out"): every peer of a local cluster shares 127.0.0.1, so the
// master cannot tell an idle squatter from a client by address. Connections that have not
// finished the handshake share one bounded pool; when it is full the oldest is dropped for
// the newcomer, so a client or worker that connects and speaks always gets in, however many
// silent connections some local process holds.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

#include <gtest/gtest.h>

#include "common/clock.h"
#include "common/file_util.h"
#include "common/framing.h"
#include "common/version.h"
#include "mr.pb.h"
#include "tests/cluster/cluster_fixture.h"

namespace mr::testing {
namespace {

constexpr int kPool = 256;          // the master's default --max-pending-handshakes
constexpr int kHeld = kPool + 44;   // more than the pool holds

// A TCP connection to 127.0.0.1:port that never says anything.
class SilentConnection {
 public:
  explicit SilentConnection(uint16_t port) {
    fd_ = ConnectLoopback(port, &connected_);
  }
  ~SilentConnection() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool connected() const { return connected_; }
  // True once the master has closed it (EOF or reset).
  bool Closed() const {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0) return false;
    char c;
    return ::recv(fd_, &c, 1, MSG_DONTWAIT) <= 0;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

// Raises the soft fd limit to what the test needs, within the hard limit.
bool EnsureFdLimit(rlim_t need) {
  rlimit r{};
  if (::getrlimit(RLIMIT_NOFILE, &r) != 0) return false;
  if (r.rlim_cur >= need) return true;
  if (r.rlim_max != RLIM_INFINITY && r.rlim_max < need) return false;
  r.rlim_cur = need;
  return ::setrlimit(RLIMIT_NOFILE, &r) == 0;
}

TEST(AdmissionTest, SilentConnectionsDoNotLockOutClientsOrWorkers) {
  ASSERT_TRUE(EnsureFdLimit(kHeld + 128)) << "the fd limit (ulimit -n) is below " << kHeld + 128;
  TempDir tmp("mr-admission-test");
  DirectCluster c(tmp.path());
  // A handshake deadline (120 s) far beyond the test: nothing is dropped for time, so
  // connections closed below were closed to make room, however slow the machine.
  ASSERT_TRUE(c.StartMaster({"--handshake-timeout", "120"}));
  uint16_t port = static_cast<uint16_t>(std::stoi(c.addr().substr(c.addr().rfind(':') + 1)));
  std::vector<std::unique_ptr<SilentConnection>> held;
  for (int i = 0; i < kHeld; ++i) {
    held.push_back(std::make_unique<SilentConnection>(port));
    ASSERT_TRUE(held.back()->connected()) << "connection " << i;
  }
  double start = MonotonicSeconds();
  auto status = c.Mr("status --json");
  EXPECT_EQ(status.exit_code, 0) << status.err;

  c.StartWorker();
  int workers = -1;
  WaitUntil([&] {
    auto r = c.Mr("status --json");
    if (r.exit_code == 0) workers = nlohmann::json::parse(r.out, nullptr, false).value("workers", -1);
    return workers >= 1;
  }, 60, 0.1);
  EXPECT_EQ(workers, 1) << "the worker never registered: " << ReadFile(tmp.path() + "/worker-0.log");
  // Well before the handshake deadline (half of it, a margin no load eats): the oldest
  // silent connections made room, the newest are still held.
  EXPECT_LT(MonotonicSeconds() - start, 60.0);
  EXPECT_TRUE(held.front()->Closed()) << "the oldest silent connection was not the one dropped";
  EXPECT_FALSE(held.back()->Closed()) << "the newest silent connection was dropped first";
}

// A connection that sends a client's Hello at once; with a cluster token the master answers
// it and waits for the Auth, so it stays pending, having spoken.
class HelloConnection {
 public:
  explicit HelloConnection(uint16_t port) {
    fd_ = ConnectLoopback(port, &connected_);
    proto::Envelope hello;
    hello.mutable_hello()->set_protocol_version(kProtocolVersion);
    hello.mutable_hello()->set_role("client");
    const std::string frame = EncodeFrame(hello.SerializeAsString());
    if (connected_) sent_ = ::send(fd_, frame.data(), frame.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(frame.size());
  }
  ~HelloConnection() { Close(); }
  bool ok() const { return connected_ && sent_; }
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  // Whether the master answered (bytes wait), now.
  bool Answered() const {
    char c;
    return ::recv(fd_, &c, 1, MSG_DONTWAIT | MSG_PEEK) > 0;
  }
  // Reads what was sent (the HelloReply) to see past it to an EOF or reset.
  bool Closed() const {
    char buf[4096];
    for (;;) {
      ssize_t n = ::recv(fd_, buf, sizeof buf, MSG_DONTWAIT);
      if (n > 0) continue;
      return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
    }
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
  bool sent_ = false;
};

// Issue 29: a restarted master's thousands of workers all speak at once while the state
// thread is busy. Peers that have spoken are not pushed out of a full pool: the newcomer
// waits (in the listen backlog) until one leaves. Failed before the fix: the 17th and 18th
// connections closed the 1st and 2nd.
TEST(AdmissionTest, PeersThatSpokeAreNotPushedOutTheNewcomerWaits) {
  constexpr int kSmallPool = 16;
  TempDir tmp("mr-admission-test");
  const std::string token = tmp.path() + "/token";
  ASSERT_TRUE(WriteStringToFile(token, "admission-test-secret\n").ok());
  ::chmod(token.c_str(), 0600);
  DirectCluster c(tmp.path());
  ASSERT_TRUE(c.StartMaster({"--token-file", token, "--handshake-timeout", "120", "--max-pending-handshakes",
                             std::to_string(kSmallPool)}));
  uint16_t port = static_cast<uint16_t>(std::stoi(c.addr().substr(c.addr().rfind(':') + 1)));
  std::vector<std::unique_ptr<HelloConnection>> held;
  for (int i = 0; i < kSmallPool; ++i) {
    held.push_back(std::make_unique<HelloConnection>(port));
    ASSERT_TRUE(held.back()->ok()) << "connection " << i;
  }
  // Each is answered (HelloReply with its challenge) and waits in the pool for its Auth.
  EXPECT_TRUE(WaitUntil([&] {
    for (const auto& h : held) {
      if (!h->Answered()) return false;
    }
    return true;
  }, 60, 0.05));
  // Two newcomers wait (the pool is full of speakers: accepting paused). Two others leave,
  // not the oldest: both newcomers are let in and answered.
  held.push_back(std::make_unique<HelloConnection>(port));
  held.push_back(std::make_unique<HelloConnection>(port));
  ASSERT_TRUE(held[kSmallPool]->ok() && held[kSmallPool + 1]->ok());
  held[5]->Close();
  held[6]->Close();
  EXPECT_TRUE(WaitUntil([&] { return held[kSmallPool]->Answered() && held[kSmallPool + 1]->Answered(); }, 60, 0.05))
      << "a newcomer was never admitted";
  for (int i : {0, 1, 2, 3, 4, 7, kSmallPool - 1}) {
    EXPECT_FALSE(held[i]->Closed()) << "connection " << i << ", which had spoken, was pushed out";
  }
}

}  // namespace
}  // namespace mr::testing
